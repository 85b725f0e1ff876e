"""The Star Wars schema (built from SDL with graphql-core) and its resolvers."""

import threading

from graphql import GraphQLError, build_schema

import starwars_data as data

SDL = '''
"One of the films in the original trilogy."
enum Episode { NEWHOPE EMPIRE JEDI }

enum LengthUnit { METER FOOT }

interface Character {
  id: ID!
  name: String!
  friends: [Character]
  friendsConnection(first: Int, after: ID): FriendsConnection!
  appearsIn: [Episode]!
}

type Human implements Character {
  id: ID!
  name: String!
  homePlanet: String
  height(unit: LengthUnit = METER): Float
  mass: Float
  friends: [Character]
  friendsConnection(first: Int, after: ID): FriendsConnection!
  appearsIn: [Episode]!
  starships: [Starship]
}

type Droid implements Character {
  id: ID!
  name: String!
  friends: [Character]
  friendsConnection(first: Int, after: ID): FriendsConnection!
  appearsIn: [Episode]!
  primaryFunction: String
}

type Starship {
  id: ID!
  name: String!
  length(unit: LengthUnit = METER): Float
}

union SearchResult = Human | Droid | Starship

type FriendsConnection {
  totalCount: Int!
  edges: [FriendsEdge]
  friends: [Character]
  pageInfo: PageInfo!
}

type FriendsEdge {
  cursor: ID!
  node: Character
}

type PageInfo {
  startCursor: ID
  endCursor: ID
  hasNextPage: Boolean!
}

type Review {
  episode: Episode
  stars: Int!
  commentary: String
}

input ColorInput {
  red: Int!
  green: Int!
  blue: Int!
}

input ReviewInput {
  stars: Int!
  commentary: String
  favoriteColor: ColorInput
}

type Query {
  hero(episode: Episode): Character
  character(id: ID!): Character
  human(id: ID!): Human
  droid(id: ID!): Droid
  starship(id: ID!): Starship
  search(text: String!): [SearchResult]
  reviews(episode: Episode!): [Review]
}

type Mutation {
  createReview(episode: Episode, review: ReviewInput!): Review
}
'''


class Reviews:
    """The reviews written through createReview, per server process."""

    def __init__(self):
        self._lock = threading.Lock()
        self._by_episode = {}

    def add(self, episode, review):
        with self._lock:
            self._by_episode.setdefault(episode, []).append(review)

    def of(self, episode):
        with self._lock:
            return list(self._by_episode.get(episode, []))


def _in_unit(meters, unit):
    if meters is None:
        return None
    return meters if unit == "METER" else round(meters / data.METERS_PER_FOOT, 7)


def _friends(source, _info):
    return [data.character(identifier) for identifier in source["friends"]]


def _friends_connection(source, _info, first=None, after=None):
    ids = source["friends"]
    start = ids.index(after) + 1 if after in ids else 0
    if after is not None and after not in ids:
        raise GraphQLError(f"unknown cursor '{after}'")
    if first is not None and first < 0:
        raise GraphQLError("first must not be negative")
    page = ids[start:] if first is None else ids[start:start + first]
    nodes = [data.character(identifier) for identifier in page]
    return {
        "totalCount": len(ids),
        "edges": [{"cursor": identifier, "node": node} for identifier, node in zip(page, nodes)],
        "friends": nodes,
        "pageInfo": {
            "startCursor": page[0] if page else None,
            "endCursor": page[-1] if page else None,
            "hasNextPage": start + len(page) < len(ids),
        },
    }


def _character(_root, _info, id):
    found = data.character(id)
    if found is None:
        raise GraphQLError(f"no character has id '{id}'")
    return found


def _search(_root, _info, text):
    needle = text.lower()
    tables = (data.HUMANS, data.DROIDS, data.STARSHIPS)
    return [item for table in tables for item in table.values() if needle in item["name"].lower()]


def _create_review(_root, info, review, episode=None):
    stored = {"episode": episode, "stars": review["stars"], "commentary": review.get("commentary")}
    info.context["reviews"].add(episode, stored)
    return stored


def make_schema():
    """The executable schema."""
    schema = build_schema(SDL)
    query = schema.query_type.fields
    query["hero"].resolve = lambda _root, _info, episode=None: data.character(
        data.HEROES.get(episode, data.DEFAULT_HERO))
    query["character"].resolve = _character
    query["human"].resolve = lambda _root, _info, id: data.HUMANS.get(id)
    query["droid"].resolve = lambda _root, _info, id: data.DROIDS.get(id)
    query["starship"].resolve = lambda _root, _info, id: data.STARSHIPS.get(id)
    query["search"].resolve = _search
    query["reviews"].resolve = lambda _root, info, episode: info.context["reviews"].of(episode)
    schema.mutation_type.fields["createReview"].resolve = _create_review

    for name in ("Human", "Droid"):
        fields = schema.get_type(name).fields
        fields["friends"].resolve = _friends
        fields["friendsConnection"].resolve = _friends_connection
    schema.get_type("Human").fields["height"].resolve = lambda source, _info, unit: _in_unit(source["height"], unit)
    schema.get_type("Human").fields["starships"].resolve = lambda source, _info: [
        data.STARSHIPS[identifier] for identifier in source["starships"]]
    schema.get_type("Starship").fields["length"].resolve = lambda source, _info, unit: _in_unit(source["length"], unit)

    def resolve_type(value, _info, _type):
        return value["__typename"]

    schema.get_type("Character").resolve_type = resolve_type
    schema.get_type("SearchResult").resolve_type = resolve_type
    return schema
