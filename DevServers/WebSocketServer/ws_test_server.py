#!/usr/bin/env python3
"""A WebSocket server (the `websockets` library, an independent RFC 6455 implementation) for gqlc's
WebSocket client tests.

Run: ws_test_server.py [--tls]. It prints, one line each, flushed:
  ca PATH          (with --tls) the PEM of the test CA that signed its certificate for 127.0.0.1/localhost
  raw PORT         the port of the raw scenarios below (plain TCP)
  listening PORT   once it accepts connections on 127.0.0.1 (printed last)
  pong PATH DATA   when the client answered the server's ping on /ping
  raw-tls-hello    when a TLS client hello reaches the raw port (never answered: the client's handshake stalls)
  closed PATH rcvd=CODE:REASON sent=CODE:REASON   when a connection ends (`none` for a missing close frame)
It runs until stdin closes, so it never outlives the test that started it.

Paths (what the server does after the handshake):
  /echo             echoes every message (text as text, binary as binary)
  /headers          sends {"headers": {...}, "subprotocol": ...} as JSON, then echoes
  /fragments        sends "Hello wörld" in 3 text fragments and [1,2,3] in 2 binary fragments, then echoes
  /ping             pings with b"are you there", waits for the pong, sends "pong ok", then echoes
  /close            sends "bye soon", then closes with 4001 "scenario over"
  /reserved-bits    writes a raw frame with RSV1 set (a protocol error), then waits
  /drop             closes the TCP connection without a close frame
  /silent           sends nothing
  /refuse           refuses the upgrade: HTTP 403 with a text body
  /bad-accept       answers 101 with a wrong Sec-WebSocket-Accept

Raw scenarios, written byte by byte on their own port (what `websockets` will not send):
  /early            the 101 response, a text frame "early bird" and a close frame 1000, in one write
  /bad-utf8         the 101 response, then a text frame that is not UTF-8
  Both then read the client's close frame and print: raw-closed PATH CODE
A TLS client on the raw port never gets a server hello: its handshake stalls there.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import json
import sys
import tempfile
from http import HTTPStatus
from pathlib import Path

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed


def say(line: str) -> None:
    print(line, flush=True)


def describe(frame) -> str:
    return "none" if frame is None else f"{int(frame.code)}:{frame.reason}"


async def echo(ws: ServerConnection) -> None:
    async for message in ws:
        await ws.send(message)


async def handler(ws: ServerConnection) -> None:
    path = ws.request.path.split("?")[0]
    try:
        if path == "/headers":
            headers = {name.lower(): value for name, value in ws.request.headers.raw_items()}
            await ws.send(json.dumps({"headers": headers, "subprotocol": ws.subprotocol, "target": ws.request.path}))
            await echo(ws)
        elif path == "/fragments":
            await ws.send(["Hel", "lo ", "wörld"])
            await ws.send([b"\x01\x02", b"\x03"])
            await echo(ws)
        elif path == "/ping":
            await asyncio.wait_for(await ws.ping(b"are you there"), timeout=30)
            say(f"pong {path} are you there")
            await ws.send("pong ok")
            await echo(ws)
        elif path == "/close":
            await ws.send("bye soon")
            await ws.close(4001, "scenario over")
        elif path == "/reserved-bits":
            ws.transport.write(bytes([0xC1, 0x00]))
            await ws.wait_closed()
        elif path == "/drop":
            ws.transport.close()
        elif path == "/silent":
            await ws.wait_closed()
        else:
            await echo(ws)
    except ConnectionClosed:
        pass
    finally:
        await ws.wait_closed()
        say(f"closed {path} rcvd={describe(ws.protocol.close_rcvd)} sent={describe(ws.protocol.close_sent)}")


def process_request(ws: ServerConnection, request):
    if request.path.split("?")[0] == "/refuse":
        return ws.respond(HTTPStatus.FORBIDDEN, "no entry for this test\n")
    return None


def process_response(ws: ServerConnection, request, response):
    if request.path.split("?")[0] == "/bad-accept":
        del response.headers["Sec-WebSocket-Accept"]
        response.headers["Sec-WebSocket-Accept"] = "bm90IHRoZSByaWdodCB2YWx1ZQ=="
    return None


def select_subprotocol(ws: ServerConnection, offered):
    return "graphql-ws" if "graphql-ws" in offered else None


def frame(opcode: int, payload: bytes) -> bytes:
    """An unmasked server frame (payloads under 126 bytes)."""
    return bytes([0x80 | opcode, len(payload)]) + payload


RAW_SCENARIOS = {
    "/early": frame(0x1, b"early bird") + frame(0x8, (1000).to_bytes(2, "big")),
    "/bad-utf8": frame(0x1, b"\xc3\x28"),
}


async def raw_handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        first = await reader.readexactly(1)
        if first == b"\x16":  # a TLS handshake record: the client is inside its connect, for the cancellation tests
            say("raw-tls-hello")
            await reader.read()  # until the client gives up
            writer.close()
            return
        head = (first + await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
        writer.close()
        return
    path = head.split(" ")[1]
    key = next(line.split(":", 1)[1].strip() for line in head.split("\r\n")
               if line.lower().startswith("sec-websocket-key:"))
    accept = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest())
    response = (b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n")
    writer.write(response + RAW_SCENARIOS[path])
    await writer.drain()
    code = "none"
    try:
        header = await reader.readexactly(2)
        if header[0] & 0x0F == 0x8:
            mask = await reader.readexactly(4)
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(await reader.readexactly(header[1] & 0x7F)))
            code = str(int.from_bytes(payload[:2], "big")) if len(payload) >= 2 else "empty"
    except asyncio.IncompleteReadError:
        pass
    say(f"raw-closed {path} {code}")
    writer.close()


def tls_context(directory: Path):
    import ssl

    import trustme

    ca = trustme.CA()
    ca_path = directory / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_path))
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1", "localhost").configure_cert(context)
    say(f"ca {ca_path}")
    return context


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tls", action="store_true", help="serve wss:// with a certificate from a fresh test CA")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gqlc-ws-") as directory:
        context = tls_context(Path(directory)) if args.tls else None
        async with serve(handler, "127.0.0.1", 0, ssl=context, process_request=process_request,
                         process_response=process_response, select_subprotocol=select_subprotocol,
                         compression=None, ping_interval=None, max_size=None) as server:
            raw = await asyncio.start_server(raw_handler, "127.0.0.1", 0)
            say(f"raw {raw.sockets[0].getsockname()[1]}")
            port = next(iter(server.sockets)).getsockname()[1]
            say(f"listening {port}")
            # Until the test closes our stdin (or dies).
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


if __name__ == "__main__":
    asyncio.run(main())
