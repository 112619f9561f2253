"""Fan-out of one event to many graphql-transport-ws subscribers, timed by
a client cheap enough not to be what is measured.

A client built on the `websockets` library spends about 100 µs of Python
per message, so with 10,000 sockets it, not the server, sets the delivery
times (one core of two busy the whole broadcast). This one speaks just
enough of RFC 6455 over plain non-blocking sockets: the upgrade, masked
text frames out (a zero mask), and, while timing, only a search for
`"type":"next"` in what arrives, read through one epoll.

Sockets bind to source addresses 127.0.0.1, 127.0.0.2, … (20,000 each),
so more than one address's worth of ephemeral ports can connect.
"""
import json
import os
import select
import socket
import time

NEXT = b'"type":"next"'
PING = b'"type":"ping"'
PER_SOURCE = 20000


def frame(text):
    """A masked text frame (the mask is zero, so the payload is as is)."""
    payload = text.encode()
    length = len(payload)
    if length < 126:
        head = bytes([0x81, 0x80 | length])
    elif length < 65536:
        head = bytes([0x81, 0x80 | 126]) + length.to_bytes(2, "big")
    else:
        head = bytes([0x81, 0x80 | 127]) + length.to_bytes(8, "big")
    return head + b"\0\0\0\0" + payload


PONG = frame('{"type":"pong"}')


def read_until(sock, marker, limit=65536):
    data = b""
    while marker not in data:
        chunk = sock.recv(limit)
        if not chunk:
            raise ConnectionError("closed during the handshake")
        data += chunk
    return data


class Subscriber:
    __slots__ = ("sock", "received", "times")

    def __init__(self, sock):
        self.sock = sock
        self.received = 0
        self.times = []


def connect(port, index, token, query, variables):
    """One subscriber, subscribed (blocking, as the handshake is short)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((f"127.0.0.{1 + index // PER_SOURCE}", 0))
    sock.connect(("127.0.0.1", port))
    sock.sendall(
        b"GET /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        b"Sec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n")
    head = read_until(sock, b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 101"):
        raise ConnectionError(head[:80])
    init = {"type": "connection_init"}
    if token:
        init["payload"] = {"token": token}
    sock.sendall(frame(json.dumps(init)))
    read_until(sock, b"connection_ack")
    sock.sendall(frame(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": query, "variables": variables}})))
    sock.setblocking(False)
    return Subscriber(sock)


def wait_for(subscribers, wanted, started, deadline):
    """Reads every socket until each has `wanted` events or the deadline
    passes; notes when each event arrived, in seconds after `started`."""
    poller = select.epoll()
    by_fd = {}
    for subscriber in subscribers:
        if subscriber.received < wanted:
            by_fd[subscriber.sock.fileno()] = subscriber
            poller.register(subscriber.sock.fileno(), select.EPOLLIN)
    waiting = len(by_fd)
    while waiting and time.monotonic() < deadline:
        for fd, _ in poller.poll(0.2, 4096):
            subscriber = by_fd[fd]
            try:
                data = subscriber.sock.recv(262144)
            except BlockingIOError:
                continue
            now = time.monotonic() - started
            events = data.count(NEXT)
            if PING in data:
                subscriber.sock.send(PONG)
            for _ in range(events):
                subscriber.received += 1
                subscriber.times.append(now)
            if subscriber.received >= wanted and fd in by_fd:
                poller.unregister(fd)
                del by_fd[fd]
                waiting -= 1
    poller.close()


def drain(subscribers):
    """Answers pings and drops whatever else came while not timing."""
    for subscriber in subscribers:
        try:
            while True:
                data = subscriber.sock.recv(262144)
                if not data:
                    break
                if PING in data:
                    subscriber.sock.send(PONG)
        except BlockingIOError:
            pass


def percentiles(values):
    values = sorted(values)
    if not values:
        return "none"
    return (f"p50 {values[len(values) // 2] * 1000:.0f} ms, p99 {values[max(0, int(len(values) * 0.99) - 1)] * 1000:.0f} ms, "
            f"last {values[-1] * 1000:.0f} ms")
