"""appsync-local: a local, AppSync-compatible GraphQL server for Amplify model schemas.

The server reads the same model-introspection files that gqlc reads, generates the schema the
Amplify GraphQL transformer (v2) would deploy, and serves it over HTTP with SQLite storage and
DynamoDB-like semantics (post-read filters, opaque page tokens, conditional writes), and subscriptions
over AppSync's real-time WebSocket protocol.

Modules:
- ``mis``        load and resolve a model-introspection schema (MIS) from any supported file form
- ``sdl``        generate the transformer-style SDL from the resolved schema
- ``scalars``    AWS scalar validation and serialization
- ``storage``    SQLite item store
- ``filters``    DynamoDB-style filter, condition and key-condition evaluation
- ``paging``     page reads and signed, opaque ``nextToken`` values
- ``resolvers``  query, mutation and relationship resolvers
- ``execution``  request parsing, execution and AppSync-shaped responses
- ``auth``       the API-key / IAM check shared by HTTP and real-time
- ``pubsub``     subscriptions, their filters and the events mutations publish
- ``realtime``   AppSync's real-time WebSocket protocol at /graphql/realtime
- ``server``     the HTTP server, fault injection, and the upgrade to real-time
- ``cli``        command-line entry point
"""
