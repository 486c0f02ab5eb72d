"""``--scheduler ADDRESS`` of something that is not a Dask scheduler: one error line naming the address, within
the connection time (10 s) however the other end behaves: an HTTP server (it waits for a request), a listener
that never speaks, one that sends foreign bytes, one that hangs up; a protocol other than TCP is refused by
name. The listeners are throwaway sockets on 127.0.0.1 in this process."""

from __future__ import annotations

import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Callable, Iterator

import pytest
from fuzz_inputs import check_cli, run_cli
from helpers import EXAMPLES, LOADED, SAR, children_cpu

from strips_int.errors import StripsIntError

pytest.importorskip("distributed")

#: What a listener does with each connection it accepts.
Behaviour = Callable[[socket.socket], None]


def http(conn: socket.socket) -> None:
    """An HTTP server: it answers a request, and says nothing before one."""
    if conn.recv(4096):
        conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
    time.sleep(30)


def silent(conn: socket.socket) -> None:
    time.sleep(30)


def banner(conn: socket.socket) -> None:
    conn.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")
    time.sleep(30)


def hangs_up(conn: socket.socket) -> None:
    conn.sendall(b"\x10\x00\x00\x00\x00\x00\x00\x00abc")  # a frame's length, then less than it


@pytest.fixture
def listener() -> Iterator[Callable[[Behaviour], str]]:
    """Start a listener on 127.0.0.1 that treats connections as told; its address ``tcp://127.0.0.1:PORT``."""
    servers: list[socket.socket] = []

    def start(behaviour: Behaviour) -> str:
        server = socket.create_server(("127.0.0.1", 0))
        servers.append(server)

        def serve() -> None:
            while True:
                try:
                    conn, _ = server.accept()
                except OSError:  # closed at the test's end
                    return
                threading.Thread(target=lambda: _closing(conn, behaviour), daemon=True).start()

        threading.Thread(target=serve, daemon=True).start()
        return f"tcp://127.0.0.1:{server.getsockname()[1]}"

    yield start
    for server in servers:
        server.close()


def _closing(conn: socket.socket, behaviour: Behaviour) -> None:
    with conn:
        try:
            behaviour(conn)
        except OSError:
            pass


def evaluate_on(address: str, tmp_path: Path) -> subprocess.CompletedProcess:
    """``evaluate`` of the SAR examples on the scheduler at ``address``, in a child process."""
    return run_cli("strips_int.evaluate", str(SAR), str(EXAMPLES), "--out", str(tmp_path / "out"),
                   "--scheduler", address, timeout=60)


@pytest.mark.parametrize("behaviour, what", [(http, "no Dask handshake within 10 s"),
                                             (banner, "not a Dask handshake"),
                                             (hangs_up, "the connection ended before a whole Dask handshake")])
def test_evaluate_on_what_is_no_dask_scheduler(tmp_path, listener, behaviour, what):
    address = listener(behaviour)
    started, cpu = time.monotonic(), children_cpu()
    done = evaluate_on(address, tmp_path)
    seconds, cpu = time.monotonic() - started, children_cpu() - cpu
    lines = check_cli(done, (2,))
    assert len(lines) == 1 and lines[0].startswith(f"error: {address}: ") and what in lines[0], lines
    # 10 s of waiting; the rest is start-up, which a loaded machine stretches to LOADED times its CPU time
    assert seconds < 10 + 5 + LOADED * cpu, (seconds, cpu)
    assert not (tmp_path / "out" / "games.jsonl").exists()


@pytest.mark.parametrize("address, what", [("ucx://127.0.0.1:8786", "the ucx:// protocol is not supported"),
                                           ("tls://127.0.0.1:8786", "the tls:// protocol is not supported"),
                                           ("tcp://127.0.0.1", "tcp://HOST:PORT")])
def test_an_address_of_another_protocol_or_no_port(tmp_path, address, what):
    lines = check_cli(evaluate_on(address, tmp_path), (2,))
    assert len(lines) == 1 and lines[0].startswith(f"error: {address}: ") and what in lines[0], lines


def test_the_handshake_is_bounded_by_the_time_given(listener):
    from strips_int.batch.cluster import probe

    address = listener(silent)
    started = time.monotonic()
    with pytest.raises(StripsIntError, match="no Dask handshake within 1 s"):
        probe(address, 1.0)
    assert time.monotonic() - started < 10


def test_a_real_scheduler_passes_the_probe():
    from distributed import LocalCluster

    from strips_int.batch.cluster import connect

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None,
                      protocol="tcp") as cluster, connect(cluster.scheduler_address, 1) as client:
        assert client.submit(sum, [1, 2]).result() == 3
