"""Each ruleset presented to a player by author, year and a one-line
character, and its source by publication, never by a file name."""
import kemet


def test_author_year_about():
    r = kemet.Rules("senet-kendall")
    assert r.author == "Timothy Kendall"
    assert r.year == 1979
    assert r.about.startswith("Seven pieces each")
    r.close()
    r = kemet.Rules("chien-chacal")
    assert r.author == "a French rules sheet, author unknown"
    assert r.year is None
    r.close()


def test_every_ruleset_presented():
    for rid in kemet.rulesets():
        r = kemet.Rules(rid)
        assert r.author and r.about, rid
        assert "\n" not in r.about, rid
        assert ".txt" not in r.source and "seed" not in r.source, rid
        assert r.year is None or 1900 < r.year < 2100, rid
        r.close()
