"""A build inside a daemonic process (a multiprocessing pool's worker, a Dask
worker) may not start processes of its own: with -j > 1 it builds serially,
with our lexing, which a pool's worker would have installed, and says so in
one line. The site is the same as any other build's."""
from __future__ import annotations

import multiprocessing

import pygments
from pygments.lexer import RegexLexer

from errorsite.markup import lexing
from errorsite.pipeline import BuildSettings, build
from tests.test_incremental import tree, write_records

BASE_URL = "http://127.0.0.1:1/errors/"


def build_as_a_daemon(records, out, sending) -> None:
    from errorsite import records as record_step
    record_step.PARALLEL_THRESHOLD = 1  # as if there were enough records for a pool
    lines = []
    try:
        result = build(records, out, BASE_URL, BuildSettings(report=lines.append, jobs=2))
        sending.send((result.written, lines, RegexLexer.get_tokens_unprocessed is lexing.get_tokens_unprocessed))
    except BaseException as error:
        sending.send((False, [repr(error)], None))


def test_a_build_with_jobs_in_a_daemonic_process_builds_serially_with_our_lexing(tmp_path):
    records = write_records(tmp_path / "records", 5)
    context = multiprocessing.get_context("spawn")
    receiving, sending = context.Pipe(duplex=False)
    daemon = context.Process(target=build_as_a_daemon, args=(records, tmp_path / "site", sending), daemon=True)
    daemon.start()
    try:
        assert receiving.poll(120), "the daemonic build did not answer"
        written, lines, ours = receiving.recv()
    finally:
        daemon.join(30)
    mirrored = pygments.__version__.startswith(lexing.MIRRORED)
    assert lines == ["-j 2: this is a daemonic process (a pool's or a cluster's worker), which may not start "
                     f"others: building in it, serially{', with our lexing' if mirrored else ''}"]
    assert written and ours == mirrored
    assert build(records, tmp_path / "one", BASE_URL, BuildSettings(report=lines.append, jobs=1)).written
    assert tree(tmp_path / "site") == tree(tmp_path / "one")


def test_code_is_highlighted_off_the_main_thread_as_on_it():
    """A Dask worker runs its tasks in threads, where the lexer's time budget
    sends the work to a helper process: the lexer must work there too."""
    import threading

    from errorsite.markup import lexer_for
    from errorsite.markup.code import highlight_block

    for path, code in (("errorsite/model.py", "def f(x):\n    return x  # the end\n"),
                       ("templates/base.html", "<p class='a'>{{ x }}</p>\n"), ("src/lib.rs", "fn f() -> u8 { 1 }\n")):
        lexer = lexer_for(path)
        on_main = highlight_block(code, lexer)
        off_main = []
        thread = threading.Thread(target=lambda: off_main.append(highlight_block(code, lexer)))
        thread.start()
        thread.join(60)
        assert off_main == [on_main] and "<span" in on_main
