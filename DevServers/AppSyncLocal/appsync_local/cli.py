"""Command line: ``appsync-local --schema FILE [options]``.

The first line on stdout is always the endpoint URL (flushed), so that tests and scripts can start
the server with ``--port 0`` and read where it listens. User errors (bad schema or seed file, bad
options) print one ``appsync-local: error: …`` line on stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
from datetime import datetime, timezone
import signal
import sys

from .conflicts import MODES
from .execution import App
from .mis import SchemaFileError, load_schema_file
from .events import EventsOptions
from .realtime import RealtimeOptions
from .sdl import generate_sdl
from .custom import check_subscription_sources, load_custom_results
from .seed import load_seed
from .snapshots import export_snapshot, import_snapshot
from .server import AppSyncHTTPServer, CannedReply, ServerOptions, TLSSetupError
from .sigv4 import IAMCredentials
from .userpools import UserPoolVerifier, clock_from_file
from .storage import Store

DESCRIPTION = """\
Local AppSync-compatible GraphQL server for Amplify model schemas. It reads a model-introspection
JSON (standalone MIS, amplify_outputs.json or amplifyconfiguration.json), generates the schema the
Amplify GraphQL transformer (v2) deploys, and serves it at http://HOST:PORT/graphql with SQLite
storage and DynamoDB-like paging, filters and conditional writes. Subscriptions use AppSync's
real-time protocol at ws://HOST:PORT/graphql/realtime; mutations publish to them."""


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text}")
    return value


def _port(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port number from 0 to 65535, got {text}")
    return value


def _http_error_status(text: str) -> int:
    value = int(text)
    if not 400 <= value <= 599:
        raise argparse.ArgumentTypeError(f"expected an HTTP error status from 400 to 599, got {text}")
    return value


def _iam_credentials(text: str) -> IAMCredentials:
    try:
        return IAMCredentials.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _seconds(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {text}")
    return value


def _status(text: str) -> int:
    value = int(text)
    if not 100 <= value <= 599:
        raise argparse.ArgumentTypeError(f"expected an HTTP status from 100 to 599, got {text}")
    return value


def _header(text: str) -> tuple[str, str]:
    name, colon, value = text.partition(":")
    if not colon or not name.strip():
        raise argparse.ArgumentTypeError(f"expected 'NAME: VALUE', got {text!r}")
    return name.strip(), value.strip()


def _subscription_source(text: str) -> tuple[str, str]:
    subscription, equals, mutation = text.partition("=")
    if not equals or not subscription or not mutation:
        raise argparse.ArgumentTypeError(f"expected SUBSCRIPTION=MUTATION, got {text!r}")
    return subscription, mutation


def _canned_reply(args: argparse.Namespace, parser: argparse.ArgumentParser) -> CannedReply | None:
    """The --reply-* options as one reply, or None when none is given."""
    given = (args.reply_status, args.reply_body, args.reply_content_type, args.reply_header, args.reply_first,
             args.reply_after)
    if all(value in (None, []) for value in given):
        return None
    body = None
    if args.reply_body is not None:
        try:
            with open(args.reply_body, "rb") as file:
                body = file.read()
        except OSError as error:
            parser.exit(2, f"appsync-local: error: --reply-body: {args.reply_body}: {error.strerror}\n")
    return CannedReply(status=args.reply_status or 200, body=body,
                       content_type=args.reply_content_type or "application/json; charset=UTF-8",
                       headers=tuple(args.reply_header), first=args.reply_first or 0,
                       after=args.reply_after or 0)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (also the source of ``--help``)."""
    parser = argparse.ArgumentParser(prog="appsync-local", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--schema", required=True, metavar="FILE",
                        help="model-introspection JSON or config file, or an @model .graphql schema (or schema/ folder), "
                             "read through gqlc ($GQLC_BIN, else on PATH)")
    parser.add_argument("--port", type=_port, default=20002, metavar="N",
                        help="port to listen on; 0 picks a free port (default 20002)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--seed", metavar="FILE.json", help='initial items: {"Post": [{...}], ...}')
    parser.add_argument("--import", dest="import_dir", metavar="DIR",
                        help="start with the records of a gqlc snapshot directory (manifest.json, MODEL.ndjson)")
    parser.add_argument("--export-on-exit", metavar="DIR",
                        help="when stopped by SIGINT or SIGTERM, write every record to DIR as a gqlc snapshot")
    parser.add_argument("--db", metavar="FILE.sqlite", help="SQLite database file (default: in memory)")
    parser.add_argument("--api-key", metavar="KEY", help="require this x-api-key header (401 otherwise)")
    parser.add_argument("--iam-credentials", type=_iam_credentials, action="append", default=[],
                        metavar="KEY_ID:SECRET[:TOKEN]",
                        help="require requests signed with AWS SigV4 (service appsync) by this key; repeatable; "
                             "a session token makes it temporary credentials. With --api-key, either is accepted")
    parser.add_argument("--iam-sts", metavar="URL",
                        help="also accept the temporary credentials that moto-local at URL issued through STS "
                             "(read from its /moto-api/data.json); turns IAM auth on")
    parser.add_argument("--region", default="us-east-1", help="the region SigV4 signatures must be scoped to "
                                                             "(default us-east-1)")
    pools = parser.add_argument_group("Cognito user-pool auth (a raw JWT in Authorization; model auth rules enforced)")
    pools.add_argument("--user-pool-id", metavar="POOL",
                       help="accept ID and access tokens of this pool (iss must be its Cognito URL) and enforce the "
                            "models' auth rules for every caller; needs --jwks-url")
    pools.add_argument("--jwks-url", metavar="URL", help="where the pool's signing keys are (e.g. moto's "
                                                         "/POOL/.well-known/jwks.json); never taken from the token")
    pools.add_argument("--clock-file", metavar="FILE",
                       help="read 'now' for token expiry from FILE (Unix seconds) when it exists, so tests can "
                            "move the clock")
    parser.add_argument("--tls-cert", metavar="FILE.pem", help="serve HTTPS with this certificate (chain) file; "
                                                              "needs --tls-key")
    parser.add_argument("--tls-key", metavar="FILE.pem", help="the private key of --tls-cert")
    parser.add_argument("--custom-results", metavar="FILE.json",
                        help='canned answers of custom queries and mutations by name: {"echo": {"result": {…}}, '
                             '"likePost": {"error": {"errorType": "…", "message": "…"}}}; the others echo their '
                             'arguments')
    parser.add_argument("--subscription-source", type=_subscription_source, action="append", default=[],
                        metavar="SUBSCRIPTION=MUTATION",
                        help="the custom subscription SUBSCRIPTION receives the results of the custom mutation "
                             "MUTATION, as a.subscription().for(a.ref('MUTATION')) does (repeatable)")
    parser.add_argument("--conflict-detection", choices=MODES, metavar="optimistic|automerge",
                        help="serve the models as a Gen 1 DataStore API: _version/_deleted/_lastChangedAt on every "
                             "type, version checks (optimistic rejects with ConflictUnhandled, automerge merges), "
                             "soft deletes, startedAt on connections and sync<Plural> queries")
    parser.add_argument("--print-schema", action="store_true", help="print the generated SDL and exit")
    faults = parser.add_argument_group("fault injection (every Nth request, counting all requests)")
    faults.add_argument("--latency-ms", type=_non_negative, default=0, metavar="N", help="delay every request")
    faults.add_argument("--fail-every", type=_non_negative, default=0, metavar="N",
                        help="answer HTTP 500 (or --fail-status)")
    faults.add_argument("--fail-status", type=_http_error_status, default=500, metavar="CODE",
                        help="the status --fail-every answers with, 400 to 599 (default 500)")
    faults.add_argument("--throttle-every", type=_non_negative, default=0, metavar="N",
                        help="answer HTTP 429 TooManyRequestsException")
    faults.add_argument("--drop-every", type=_non_negative, default=0, metavar="N",
                        help="close the connection without an answer")
    faults.add_argument("--lose-answer-every", type=_non_negative, default=0, metavar="N",
                        help="carry the request out, then close the connection without an answer")
    faults.add_argument("--retry-after", type=_non_negative, metavar="S", help="send Retry-After: S with 429s")
    replies = parser.add_argument_group("canned replies (a broken endpoint or a proxy; after the faults above)")
    replies.add_argument("--reply-status", type=_status, metavar="N",
                         help="answer with HTTP N (default 200), with AppSync's error body unless --reply-body")
    replies.add_argument("--reply-body", metavar="FILE",
                         help="answer with this file's bytes as the body; ${body} in it stands for the request's body (escaped as in a JSON string), ${header:NAME} for one header's value; ${headers} in it (or in a --reply-header "
                              "value) stands for the request's header values, echoed as a broken proxy might")
    replies.add_argument("--reply-content-type", metavar="TYPE",
                         help="Content-Type of the reply (default application/json; charset=UTF-8); "
                              "text/html for an HTML page")
    replies.add_argument("--reply-header", type=_header, action="append", default=[], metavar="'NAME: VALUE'",
                         help="add a header to the reply; repeatable")
    replies.add_argument("--reply-first", type=_non_negative, metavar="N",
                         help="reply to the first N requests only, then serve them (default: every request)")
    replies.add_argument("--reply-after", type=_non_negative, metavar="N",
                         help="serve the first N requests, then reply to the others")
    realtime = parser.add_argument_group("real-time subscriptions (ws://HOST:PORT/graphql/realtime, same port)")
    realtime.add_argument("--ws-ka-seconds", type=_seconds, default=10.0, metavar="S",
                          help="send a ka keep-alive right after connection_ack, then every S seconds (default 10)")
    realtime.add_argument("--ws-no-ka", action="store_true", help="never send ka (a dead-looking connection)")
    realtime.add_argument("--ws-connection-timeout-ms", type=_non_negative, default=300000, metavar="N",
                          help="connectionTimeoutMs announced in connection_ack (default 300000, as AppSync)")
    realtime.add_argument("--ws-drop-after", type=_non_negative, default=0, metavar="N",
                          help="close a connection's TCP socket, without a close frame, after it carried N data "
                               "messages (counted per connection)")
    realtime.add_argument("--ws-refuse-starts", type=_non_negative, default=0, metavar="N",
                          help="refuse the first N start messages that carry a token with error 401 "
                               "UnauthorizedException 'Token has expired.' (the connection stays up)")
    realtime.add_argument("--ws-echo-auth", action="store_true",
                          help="auth refusals of connections and starts repeat the auth header values they were "
                               "given in their message, as a broken server might")
    realtime.add_argument("--ws-ignore-goodbyes", action="store_true",
                          help="never answer stop (no complete) nor the client's close frame, and hold the connection "
                               "open until the client drops it")
    events = parser.add_argument_group("AppSync Events API (POST /event, ws://HOST:PORT/event/realtime, same port)")
    events.add_argument("--events-namespace", action="append", default=[], metavar="NAME",
                        help="a namespace of the Events API (repeatable; default: default)")
    parser.add_argument("--record-requests", metavar="FILE",
                        help="append each request received (method, path, headers, body) to FILE as a JSON line")
    parser.add_argument("--verbose", action="store_true", help="log each request on stderr")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the server (or print the schema); returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if bool(args.tls_cert) != bool(args.tls_key):
        parser.error("--tls-cert and --tls-key go together")
    if bool(args.user_pool_id) != bool(args.jwks_url):
        parser.error("--user-pool-id and --jwks-url go together")
    try:
        schema = load_schema_file(args.schema)
        schema.conflict_detection = args.conflict_detection
        if args.print_schema:
            sys.stdout.write(generate_sdl(schema))
            return 0
        store = Store(args.db)
        app = App(schema, store, custom_results=load_custom_results(args.custom_results, schema),
                  subscription_sources=check_subscription_sources(dict(args.subscription_source), schema))
        if args.seed:
            load_seed(args.seed, schema, store)
        if args.import_dir:
            import_snapshot(args.import_dir, schema, store)
    except SchemaFileError as error:
        parser.exit(2, f"appsync-local: error: {error}\n")
    except Exception as error:  # noqa: BLE001 - e.g. an unusable --db path; still one line
        parser.exit(2, f"appsync-local: error: {type(error).__name__}: {error}\n")
    clock = clock_from_file(args.clock_file, lambda: datetime.now(timezone.utc))
    user_pool = UserPoolVerifier(args.user_pool_id, args.jwks_url, clock) if args.user_pool_id else None
    options = ServerOptions(api_key=args.api_key, user_pool=user_pool, clock=clock,
                            iam_credentials=tuple(args.iam_credentials), iam_region=args.region, iam_sts_url=args.iam_sts,
                            latency_ms=args.latency_ms, fail_every=args.fail_every, fail_status=args.fail_status,
                            throttle_every=args.throttle_every, drop_every=args.drop_every,
                            lose_answer_every=args.lose_answer_every,
                            retry_after=args.retry_after, verbose=args.verbose,
                            reply=_canned_reply(args, parser), record_path=args.record_requests,
                            tls_cert=args.tls_cert, tls_key=args.tls_key,
                            realtime=RealtimeOptions(ka_seconds=args.ws_ka_seconds, send_ka=not args.ws_no_ka,
                                                     connection_timeout_ms=args.ws_connection_timeout_ms,
                                                     drop_after=args.ws_drop_after,
                                                     refuse_starts=args.ws_refuse_starts,
                                                     echo_auth=args.ws_echo_auth,
                                                     ignore_goodbyes=args.ws_ignore_goodbyes),
                            events=EventsOptions(namespaces=tuple(args.events_namespace or ["default"]),
                                                 ka_seconds=args.ws_ka_seconds,
                                                 connection_timeout_ms=args.ws_connection_timeout_ms))
    try:
        server = AppSyncHTTPServer((args.host, args.port), app, options)
    except TLSSetupError as error:
        parser.exit(2, f"appsync-local: error: cannot use --tls-cert/--tls-key: {error}\n")
    except (OSError, OverflowError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        parser.exit(2, f"appsync-local: error: cannot listen on {args.host}:{args.port}: {reason}\n")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(server.url, flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.server_close()
        if args.export_on_exit:
            count = export_snapshot(args.export_on_exit, schema, store, args.schema, server.url)
            print(f"appsync-local: wrote {count} records to {args.export_on_exit}", file=sys.stderr, flush=True)
        store.close()
    return 0
