"""The Star Wars characters and starships the test server serves (its own data, in memory)."""

HUMANS = {
    "1000": {"id": "1000", "name": "Luke Skywalker", "friends": ["1002", "1003", "2000", "2001"],
             "appearsIn": ["NEWHOPE", "EMPIRE", "JEDI"], "homePlanet": "Tatooine", "height": 1.72, "mass": 77,
             "starships": ["3001", "3003"]},
    "1001": {"id": "1001", "name": "Darth Vader", "friends": ["1004"], "appearsIn": ["NEWHOPE", "EMPIRE", "JEDI"],
             "homePlanet": "Tatooine", "height": 2.02, "mass": 136, "starships": ["3002"]},
    "1002": {"id": "1002", "name": "Han Solo", "friends": ["1000", "1003", "2001"],
             "appearsIn": ["NEWHOPE", "EMPIRE", "JEDI"], "homePlanet": None, "height": 1.8, "mass": 80,
             "starships": ["3000", "3003"]},
    "1003": {"id": "1003", "name": "Leia Organa", "friends": ["1000", "1002", "2000", "2001"],
             "appearsIn": ["NEWHOPE", "EMPIRE", "JEDI"], "homePlanet": "Alderaan", "height": 1.5, "mass": 49,
             "starships": []},
    "1004": {"id": "1004", "name": "Wilhuff Tarkin", "friends": ["1001"], "appearsIn": ["NEWHOPE"],
             "homePlanet": None, "height": 1.8, "mass": None, "starships": []},
}

DROIDS = {
    "2000": {"id": "2000", "name": "C-3PO", "friends": ["1000", "1002", "1003", "2001"],
             "appearsIn": ["NEWHOPE", "EMPIRE", "JEDI"], "primaryFunction": "Protocol"},
    "2001": {"id": "2001", "name": "R2-D2", "friends": ["1000", "1002", "1003"],
             "appearsIn": ["NEWHOPE", "EMPIRE", "JEDI"], "primaryFunction": "Astromech"},
}

STARSHIPS = {
    "3000": {"id": "3000", "name": "Millennium Falcon", "length": 34.37},
    "3001": {"id": "3001", "name": "X-Wing", "length": 12.5},
    "3002": {"id": "3002", "name": "TIE Advanced x1", "length": 9.2},
    "3003": {"id": "3003", "name": "Imperial shuttle", "length": 20},
}

for _table, _type in ((HUMANS, "Human"), (DROIDS, "Droid"), (STARSHIPS, "Starship")):
    for _item in _table.values():
        _item["__typename"] = _type

# The hero of each episode; the hero of the saga (no episode) is R2-D2.
HEROES = {"EMPIRE": "1000"}
DEFAULT_HERO = "2001"

METERS_PER_FOOT = 0.3048


def character(identifier):
    """A human or droid by id, or None."""
    return HUMANS.get(identifier) or DROIDS.get(identifier)
