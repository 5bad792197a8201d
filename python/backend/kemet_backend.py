"""The package's build backend (PEP 517), in the tree so that
`pip install ./python` needs nothing from the network: it writes a wheel of
the kemet package with the shared library of a build of kemet beside it
(../build/release, or the file $KEMET_LIB names) copied in."""
import base64
import hashlib
import os
import sysconfig
import zipfile

NAME, VERSION = "kemet", "0.1.0"
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIST = "%s-%s.dist-info" % (NAME, VERSION)

METADATA = """Metadata-Version: 2.1
Name: kemet
Version: %s
Summary: The race games of ancient Egypt (Senet, the 58-holes games, Lions & Jackals): rules, agents and an OpenSpiel-shaped adapter over the kemet C library
License: see the kemet repository
Requires-Python: >=3.9
""" % VERSION


def _library():
    env = os.environ.get("KEMET_LIB")
    if env:
        return env if os.path.isfile(env) else None
    lib = os.path.join(HERE, "..", "build", "release", "libkemet.so")
    return lib if os.path.isfile(lib) else None


def _tag():
    if _library():
        plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
        return "py3", "none", plat
    return "py3", "none", "any"


def _files():
    """(name in the wheel, bytes)."""
    out = []
    pkg = os.path.join(HERE, "kemet")
    for f in sorted(os.listdir(pkg)):
        if f.endswith(".py"):
            with open(os.path.join(pkg, f), "rb") as fh:
                out.append(("kemet/" + f, fh.read()))
    lib = _library()
    if lib:
        with open(os.path.realpath(lib), "rb") as fh:
            out.append(("kemet/libkemet.so", fh.read()))
    return out


def _digest(data):
    d = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + d.decode()


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    d = os.path.join(metadata_directory, DIST)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "METADATA"), "w") as fh:
        fh.write(METADATA)
    return DIST


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    py, abi, plat = _tag()
    name = "%s-%s-%s-%s-%s.whl" % (NAME, VERSION, py, abi, plat)
    wheel = ("Wheel-Version: 1.0\nGenerator: kemet_backend\n"
             "Root-Is-Purelib: %s\nTag: %s-%s-%s\n"
             % ("true" if plat == "any" else "false", py, abi, plat))
    files = _files() + [(DIST + "/METADATA", METADATA.encode()),
                        (DIST + "/WHEEL", wheel.encode())]
    record = "".join("%s,%s,%d\n" % (n, _digest(b), len(b)) for n, b in files)
    record += DIST + "/RECORD,,\n"
    path = os.path.join(wheel_directory, name)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for n, b in files:
            info = zipfile.ZipInfo(n, date_time=(2026, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if n.endswith(".so") else 0o644) << 16
            z.writestr(info, b, zipfile.ZIP_DEFLATED)
        z.writestr(DIST + "/RECORD", record)
    return name


def build_sdist(sdist_directory, config_settings=None):
    import tarfile
    name = "%s-%s" % (NAME, VERSION)
    path = os.path.join(sdist_directory, name + ".tar.gz")
    with tarfile.open(path, "w:gz") as t:
        for rel in ("pyproject.toml", "README.md", "backend", "kemet", "tests"):
            p = os.path.join(HERE, rel)
            if os.path.exists(p):
                t.add(p, arcname=os.path.join(name, rel),
                      filter=lambda i: None if "__pycache__" in i.name else i)
        meta = METADATA.encode()
        info = tarfile.TarInfo(os.path.join(name, "PKG-INFO"))
        info.size = len(meta)
        import io
        t.addfile(info, io.BytesIO(meta))
    return name + ".tar.gz"
