"""The C library through ctypes: its structures and function signatures.

The shared library is looked for, in order: the file named by $KEMET_LIB;
a copy inside this package (put there when the wheel was built beside a
build of kemet); the system's (ctypes.util.find_library("kemet")).
"""
import ctypes
import ctypes.util
import os

MAX_VALUES = 8
MAX_STEPS = 8
MAX_MOVES = 8192
MAX_THROWS = 1024
MAX_EVENTS = 16
DESCRIBE_MAX = 4096
HAND = 0
OFF = 255

OK, EMISUSE, ESYNTAX, ERULESET, ETHROW, EILLEGAL, EOVER, ENOMEM, ERANGE, EIO = (
    0, -1, -2, -3, -4, -5, -6, -7, -8, -9)
PLAYING, WON1, WON2, DRAW = 0, 1, 2, 3
NEXT_OVER, NEXT_THROW, NEXT_MOVE = 0, 1, 2


class Pos(ctypes.Structure):
    _fields_ = [("sq", ctypes.c_uint64 * 2), ("heap", ctypes.c_uint8 * 2),
                ("hand", ctypes.c_uint8 * 2), ("to", ctypes.c_uint8),
                ("must", ctypes.c_uint8), ("result", ctypes.c_uint8),
                ("wait", ctypes.c_uint8),  # once pad_ (kemet.h)
                ("off", ctypes.c_uint8 * 2), ("lock", ctypes.c_uint8 * 2),
                ("left", ctypes.c_uint8 * 3), ("again", ctypes.c_uint8)]


class Throw(ctypes.Structure):
    _fields_ = [("n", ctypes.c_uint8), ("v", ctypes.c_uint8 * MAX_VALUES),
                ("only", ctypes.c_uint8 * MAX_VALUES),
                ("sticks", ctypes.c_uint8), ("faces", ctypes.c_uint16)]


class Step(ctypes.Structure):
    _fields_ = [("from_", ctypes.c_uint8), ("to", ctypes.c_uint8),
                ("via", ctypes.c_uint8)]


class Move(ctypes.Structure):
    _fields_ = [("n", ctypes.c_uint8), ("step", Step * MAX_STEPS)]


class Ply(ctypes.Structure):
    _fields_ = [("thr", Throw), ("move", Move)]


class Error(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("msg", ctypes.c_char * 256)]


class Change(ctypes.Structure):
    _fields_ = [("option", ctypes.c_int), ("part", ctypes.c_char * 32),
                ("from_", ctypes.c_char * 200), ("to", ctypes.c_char * 200),
                ("id", ctypes.c_char * 48)]


MAX_CHANGES = 30


class Info(ctypes.Structure):
    _fields_ = [("id", ctypes.c_char_p), ("title", ctypes.c_char_p),
                ("source", ctypes.c_char_p), ("text", ctypes.c_char_p),
                ("player", ctypes.c_char_p * 2), ("glyph", ctypes.c_char * 2),
                ("gone", ctypes.c_char_p), ("in_hand", ctypes.c_char_p),
                ("pieces", ctypes.c_int), ("squares", ctypes.c_int),
                ("board_cells", ctypes.c_int), ("board_note", ctypes.c_char_p),
                ("author", ctypes.c_char_p), ("year", ctypes.c_int),
                ("about", ctypes.c_char_p), ("scores", ctypes.c_int)]


class Event(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_uint8), ("who", ctypes.c_uint8),
                ("a", ctypes.c_uint8), ("b", ctypes.c_uint8)]


class Events(ctypes.Structure):
    _fields_ = [("n", ctypes.c_int), ("ev", Event * MAX_EVENTS)]


class Stat(ctypes.Structure):
    _fields_ = [("value", ctypes.c_double), ("lo", ctypes.c_double),
                ("hi", ctypes.c_double)]


class Trace(ctypes.Structure):
    _fields_ = [("result", ctypes.c_int), ("turns", ctypes.c_long),
                ("moves", ctypes.c_long), ("passes", ctypes.c_long),
                ("forced", ctypes.c_long), ("decisions", ctypes.c_long),
                ("choices", ctypes.c_double), ("branching", ctypes.c_double),
                ("n", ctypes.c_int), ("p1", ctypes.POINTER(ctypes.c_double))]


ANALYSIS_STATS = ("completion", "drawishness", "advantage_p1", "balance",
                  "duration_turns", "duration_moves")
ANALYSIS_MORE = ("lost_throws", "forced_moves", "choices", "branching_factor",
                 "lead_change", "drama", "decisiveness_threshold")


class Analysis(ctypes.Structure):
    _fields_ = ([("games", ctypes.c_long), ("ended", ctypes.c_long),
                 ("stopped", ctypes.c_long), ("draws", ctypes.c_long),
                 ("wins", ctypes.c_long * 2)] +
                [(n, Stat) for n in ANALYSIS_STATS] +
                [("median_turns", ctypes.c_double),
                 ("sd_turns", ctypes.c_double),
                 ("median_moves", ctypes.c_double),
                 ("sd_moves", ctypes.c_double)] +
                [(n, Stat) for n in ANALYSIS_MORE])


# A study (kemet_study_*): one reading measured as a game.
STUDY_RUNGS = 8
STUDY_TRACE = 8
STUDY_PROBES = 3
STUDY_BINS = 20
STUDY_CELLS = 128
STUDY_SAMPLES = 3
CRITERIA = 7
PART_HEAD = 3  # KEMET_PART_HEAD: the strong agent against the weak


class StudySettings(ctypes.Structure):
    _fields_ = [("strong", ctypes.c_char_p), ("weak", ctypes.c_char_p * 2),
                ("ladder", ctypes.c_char_p * STUDY_RUNGS),
                ("rungs", ctypes.c_int), ("games", ctypes.c_long),
                ("trace_games", ctypes.c_long), ("trace_base", ctypes.c_long),
                ("cap", ctypes.c_long), ("precision", ctypes.c_double),
                ("pilot", ctypes.c_long), ("most", ctypes.c_long),
                ("seed", ctypes.c_uint64), ("variant", ctypes.c_int),
                ("parts", ctypes.c_int)]


class SelfplayFigures(ctypes.Structure):
    _fields_ = [("agent", (ctypes.c_char * 48) * 2), ("games", ctypes.c_long),
                ("analysis", Analysis),
                ("hist", ctypes.c_long * STUDY_BINS), ("bin", ctypes.c_double),
                ("luck", ctypes.c_int), ("p1_adjusted", Stat),
                ("median", Stat), ("per_turn", Stat), ("stopped", Stat),
                ("decisions", ctypes.c_double),
                ("land", ctypes.c_double * STUDY_CELLS),
                ("coverage", ctypes.c_double),
                ("table_decisions", ctypes.c_double),
                ("linear_errors", ctypes.c_double),
                ("linear_loss", ctypes.c_double), ("nsample", ctypes.c_int),
                ("sample_n", ctypes.c_int * STUDY_SAMPLES),
                ("sample_result", ctypes.c_int * STUDY_SAMPLES),
                ("sample", ctypes.POINTER(ctypes.c_double) * STUDY_SAMPLES)]


class Estimate(ctypes.Structure):
    _fields_ = [(n, ctypes.c_double)
                for n in ("score", "lo", "hi", "elo", "elo_lo", "elo_hi")]


class MatchStats(ctypes.Structure):
    _fields_ = ([("games", ctypes.c_long), ("wins", ctypes.c_long * 2),
                 ("seat_wins", (ctypes.c_long * 2) * 2),
                 ("draws", ctypes.c_long), ("stopped", ctypes.c_long),
                 ("turns", ctypes.c_double), ("lo", ctypes.c_double * 2),
                 ("hi", ctypes.c_double * 2)] +
                [(n, ctypes.c_double)
                 for n in ("score", "score_lo", "score_hi", "elo", "elo_lo",
                           "elo_hi", "secs")] +
                [("think", ctypes.c_double * 2), ("how", ctypes.c_int),
                 ("adj", Estimate)])


class MatchFigures(ctypes.Structure):
    _fields_ = [("upper", ctypes.c_char * 48), ("lower", ctypes.c_char * 48),
                ("games", ctypes.c_long), ("stats", MatchStats),
                ("luck_share", Stat), ("sd", ctypes.c_double),
                ("contradiction", ctypes.c_int)]


class StudyFigures(ctypes.Structure):
    _fields_ = [("id", ctypes.c_char * 96), ("variant", ctypes.c_int),
                ("table_pieces", ctypes.c_int), ("nsteps", ctypes.c_int),
                ("weak", SelfplayFigures), ("strong", SelfplayFigures),
                ("ladder", MatchFigures * (STUDY_RUNGS - 1)),
                ("head", MatchFigures),
                ("probe", MatchFigures * STUDY_PROBES),
                ("trace_y", ctypes.c_double * STUDY_TRACE),
                ("trace_adj", Stat * STUDY_TRACE),
                ("skill_trace", ctypes.c_double),
                ("skill_trace_adj", ctypes.c_double),
                ("games_to_lead", ctypes.c_double)]


class Measured(ctypes.Structure):
    _fields_ = [("c", Stat * CRITERIA), ("games", ctypes.c_long * CRITERIA)]


class Criterion(ctypes.Structure):
    # its first fields only (kemet_criterion): read, never made here
    _fields_ = [("name", ctypes.c_char_p), ("figure", ctypes.c_char_p)]


def _find():
    here = os.path.dirname(os.path.abspath(__file__))
    tried = []
    env = os.environ.get("KEMET_LIB")
    if env:
        return env, tried
    for name in sorted(os.listdir(here)):
        if name.startswith("libkemet.so"):
            return os.path.join(here, name), tried
    tried.append(here)
    found = ctypes.util.find_library("kemet")
    if found:
        return found, tried
    tried.append("the system's libraries")
    return None, tried


# kemet_choose_fn: (ctx, pos, thr or NULL, moves, n) -> index, -1 to throw
CHOOSE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(Pos),
                          ctypes.POINTER(Throw), ctypes.POINTER(Move),
                          ctypes.c_int)


def load():
    path, tried = _find()
    if path is None:
        raise OSError("kemet: no libkemet.so (looked in %s); build kemet "
                      "(./run build) and reinstall the package, or set "
                      "KEMET_LIB to the library's path" % ", ".join(tried))
    # a file that is not there, not a library, or not kemet's: one clear
    # OSError naming it, not ctypes' own traceback
    source = "KEMET_LIB=%s" % path if os.environ.get("KEMET_LIB") else path
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise OSError("kemet: cannot load %s (%s); set KEMET_LIB to a "
                      "libkemet.so, or unset it" % (source, e)) from None
    P = ctypes.POINTER
    vp = ctypes.c_void_p
    sig = {
        "kemet_version": (ctypes.c_char_p, []),
        "kemet_strerror": (ctypes.c_char_p, [ctypes.c_int]),
        "kemet_ruleset_count": (ctypes.c_int, []),
        "kemet_ruleset_id": (ctypes.c_char_p, [ctypes.c_int]),
        "kemet_rules_open": (ctypes.c_int, [ctypes.c_char_p, P(vp), P(Error)]),
        "kemet_rules_open_text": (ctypes.c_int,
                                  [ctypes.c_char_p, ctypes.c_char_p,
                                   ctypes.c_char_p, P(vp), P(Error)]),
        "kemet_rules_open_file": (ctypes.c_int,
                                  [ctypes.c_char_p, ctypes.c_char_p,
                                   ctypes.c_char_p, P(vp), P(Error)]),
        "kemet_rule_changes": (ctypes.c_int, [vp, P(Change), ctypes.c_int,
                                              P(ctypes.c_int), P(Error)]),
        "kemet_change_text": (ctypes.c_int,
                              [vp, P(Change), P(vp), P(Error)]),
        "kemet_rules_open_change": (ctypes.c_int,
                                    [vp, P(Change), P(vp), P(Error)]),
        "kemet_rules_sha256": (ctypes.c_char_p, [vp]),
        "kemet_pos_read": (ctypes.c_int,
                           [vp, ctypes.c_char_p, P(Pos), P(Error)]),
        "kemet_rules_close": (None, [vp]),
        "kemet_judge_new": (ctypes.c_int,
                            [vp, ctypes.c_char_p, P(vp), P(Error)]),
        "kemet_judge_free": (None, [vp]),
        "kemet_rules_info": (P(Info), [vp]),
        "kemet_rules_spec": (ctypes.c_char_p, [vp]),
        "kemet_start": (None, [vp, P(Pos)]),
        "kemet_pos_parse": (ctypes.c_int,
                            [ctypes.c_char_p, P(vp), P(Pos), P(Error)]),
        "kemet_pos_check": (ctypes.c_int, [vp, P(Pos), P(Error)]),
        "kemet_pos_format": (ctypes.c_int,
                             [vp, P(Pos), ctypes.c_char_p, ctypes.c_size_t]),
        "kemet_move_parse": (ctypes.c_int,
                             [vp, ctypes.c_char_p, P(Move), P(Error)]),
        "kemet_move_format": (ctypes.c_int,
                              [P(Move), ctypes.c_char_p, ctypes.c_size_t]),
        "kemet_throw_parse": (ctypes.c_int,
                              [vp, ctypes.c_char_p, P(Throw), P(Error)]),
        "kemet_throw_format": (ctypes.c_int,
                               [P(Throw), ctypes.c_char_p, ctypes.c_size_t]),
        "kemet_throws": (ctypes.c_int, [vp, P(Pos), P(Throw),
                                        P(ctypes.c_uint64),
                                        P(ctypes.c_uint64)]),
        "kemet_prethrow": (ctypes.c_int, [vp, P(Pos), P(Move)]),
        "kemet_moves": (ctypes.c_int, [vp, P(Pos), P(Throw), P(Move)]),
        "kemet_apply": (ctypes.c_int,
                        [vp, P(Pos), P(Throw), P(Move), P(Pos), P(Events)]),
        "kemet_describe": (ctypes.c_int, [vp, P(Events), ctypes.c_char_p,
                                          ctypes.c_size_t]),
        "kemet_explain": (ctypes.c_int, [vp, P(Pos), P(Throw), P(Move),
                                         ctypes.c_char_p, ctypes.c_size_t]),
        "kemet_win_chance": (ctypes.c_double, [vp, P(Pos), ctypes.c_int]),
        "kemet_agent_new": (ctypes.c_int, [vp, ctypes.c_char_p,
                                           ctypes.c_uint64, P(vp), P(Error)]),
        "kemet_agent_free": (None, [vp]),
        "kemet_agent_spec": (ctypes.c_char_p, [vp]),
        "kemet_agent_choose": (ctypes.c_int, [vp, P(Pos), P(Throw), P(Move),
                                              ctypes.c_int]),
        "kemet_agent_rank": (ctypes.c_int,
                             [vp, P(Pos), P(Throw), P(Move), ctypes.c_int,
                              P(ctypes.c_double), P(ctypes.c_double)]),
        "kemet_level_agent": (ctypes.c_char_p, [ctypes.c_int]),
        "kemet_rules_level_agent": (ctypes.c_char_p, [vp, ctypes.c_int]),
        "kemet_game_new": (ctypes.c_int, [vp, ctypes.c_uint64, P(vp),
                                          P(Events)]),
        "kemet_game_setup": (ctypes.c_int, [vp, ctypes.c_uint64, P(Pos),
                                            P(vp), P(Error)]),
        "kemet_game_free": (None, [vp]),
        "kemet_free": (None, [vp]),
        "kemet_game_pos": (P(Pos), [vp]),
        "kemet_game_throw": (P(Throw), [vp]),
        "kemet_game_roll": (ctypes.c_int, [vp, P(Throw)]),
        "kemet_game_play": (ctypes.c_int, [vp, P(Move), P(Events)]),
        "kemet_game_turns": (ctypes.c_long, [vp]),
        "kemet_game_plies": (ctypes.c_long, [vp]),
        # the game session
        "kemet_game_set_players": (ctypes.c_int, [vp, ctypes.c_char_p,
                                                  ctypes.c_char_p]),
        "kemet_game_player": (ctypes.c_char_p, [vp, ctypes.c_int]),
        "kemet_game_seed": (ctypes.c_uint64, [vp]),
        "kemet_game_start": (P(Pos), [vp]),
        "kemet_game_is_setup": (ctypes.c_int, [vp]),
        "kemet_game_history": (P(Ply), [vp]),
        "kemet_game_mover": (ctypes.c_int, [vp, ctypes.c_long]),
        "kemet_game_result": (ctypes.c_int, [vp]),
        "kemet_game_resigned": (ctypes.c_int, [vp]),
        "kemet_game_resign": (ctypes.c_int, [vp, ctypes.c_int]),
        "kemet_game_stop": (ctypes.c_int, [vp]),
        "kemet_game_stopped": (ctypes.c_int, [vp]),
        "kemet_game_next": (ctypes.c_int, [vp]),
        "kemet_game_back": (ctypes.c_int, [vp, ctypes.c_long]),
        "kemet_game_last_move": (ctypes.c_long, [vp, ctypes.c_int]),
        "kemet_game_takeback": (ctypes.c_int, [vp, ctypes.c_int]),
        # the text is malloc'd: read it, then free it with libc's free
        "kemet_game_record": (ctypes.c_int, [vp, P(ctypes.c_void_p)]),
        "kemet_game_read": (ctypes.c_int, [vp, ctypes.c_char_p, P(vp),
                                           P(Error)]),
        "kemet_game_step": (ctypes.c_int, [vp, vp, P(Events)]),
        "kemet_game_step_with": (ctypes.c_int, [vp, CHOOSE, vp, P(Move),
                                                P(Events)]),
        "kemet_record_header": (ctypes.c_int,
                                [vp, ctypes.c_uint64, ctypes.c_char_p,
                                 ctypes.c_char_p, P(Pos), ctypes.c_char_p,
                                 ctypes.c_size_t]),
        "kemet_record_ply": (ctypes.c_int, [P(Pos), P(Throw), P(Move),
                                            ctypes.c_char_p, ctypes.c_size_t]),
        "kemet_record_result": (ctypes.c_int, [P(Pos), ctypes.c_int,
                                               ctypes.c_char_p,
                                               ctypes.c_size_t]),
        "kemet_analyze_traces": (ctypes.c_int, [P(Trace), ctypes.c_long,
                                                P(Analysis)]),
        # a study: made, run on threads, its figures read, freed
        "kemet_study_defaults": (None, [P(StudySettings)]),
        "kemet_study_new": (ctypes.c_int, [vp, P(StudySettings), P(vp),
                                           P(Error)]),
        "kemet_study_run": (ctypes.c_int, [vp, ctypes.c_int]),
        "kemet_study_result": (ctypes.c_int, [vp, P(StudyFigures)]),
        "kemet_study_free": (None, [vp]),
        "kemet_study_measured": (ctypes.c_int, [P(StudyFigures), ctypes.c_int,
                                                P(Measured)]),
        "kemet_criterion_info": (P(Criterion), [ctypes.c_int]),
    }
    for name, (res, args) in sig.items():
        try:
            f = getattr(lib, name)
        except AttributeError:
            raise OSError("kemet: %s is not kemet's library, or one too old "
                          "for this package (it has no %s); set KEMET_LIB "
                          "to a libkemet.so of this version" % (source, name)
                          ) from None
        f.restype = res
        f.argtypes = args
    return lib
