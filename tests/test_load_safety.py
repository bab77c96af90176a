"""The records folder is read safely: only regular files within the size
limit are opened, and whatever else a folder holds is one line of the report.

Every case is made by the test in tmp_path. Those that used to hang or eat
memory (a FIFO, /dev/zero, a 3 GB sparse file) are read in a subprocess with
a time limit and 1 GiB of address space, so a regression fails the test
instead of stalling or swapping the machine.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from errorsite.load import (NoRecordFiles, check_not_empty, file_digest, file_digests, load_file, load_records,
                            scan_records, skipped_note)
from tests.conftest import ROOT
from tests.test_cli import GOOD

HANG_GUARD = 60  # seconds, a hang guard: a read that finishes takes milliseconds, one that hangs never does

READ = """
import json, resource, sys
from pathlib import Path
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
from errorsite.load import file_digest, file_digests, load_file, scan_records
records, skip = Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else None
scan = scan_records(records, skip)
root = records.resolve()
names = [file.relative for file in scan.files]
print(json.dumps({
    "scanned": [str(problem) for problem in scan.problems],
    "files": names,
    "loaded": [str(raw.problem) if raw.problem else f"{raw.path}: loaded"
               for raw in (load_file(file.path, root) for file in scan.files)],
    "file_digest": [file_digest(file.path) for file in scan.files],
    "file_digests": file_digests(scan.files, names, {}, 0, dict.fromkeys(names))[0],
}))
"""


def read(records: Path, skip: Path | None = None, preexec_fn=None) -> dict:
    """What scan_records, load_file, file_digest and file_digests make of the
    folder, in a subprocess that may neither hang nor take much memory."""
    done = subprocess.run([sys.executable, "-c", READ, str(records), *([str(skip)] if skip else [])], cwd=ROOT,
                          capture_output=True, text=True, timeout=HANG_GUARD, preexec_fn=preexec_fn)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def records(tmp_path) -> Path:
    folder = tmp_path / "records"
    folder.mkdir()
    return folder


def test_a_fifo_is_reported_and_never_opened(records):
    os.mkfifo(records / "pipe.json")
    seen = read(records)
    assert seen["scanned"] == [f"{records}/pipe.json: file: is a FIFO, not a regular file: skipped"]
    assert seen["files"] == []


def test_a_symlink_to_a_fifo_is_reported_and_never_opened(records):
    os.mkfifo(records / "pipe")
    (records / "link.json").symlink_to("pipe")
    seen = read(records)
    assert seen["scanned"] == []
    assert seen["loaded"] == [f"{records}/link.json: file: is a FIFO, not a regular file: skipped"]
    assert seen["file_digest"] == ["unreadable: is a FIFO, not a regular file: skipped"]
    assert seen["file_digests"] == {"link.json": "unreadable: is a FIFO, not a regular file: skipped"}


def test_a_socket_is_reported_and_never_opened(records, monkeypatch):
    monkeypatch.chdir(records)  # bound by a short relative name: socket paths have a length limit
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind("socket.json")
        server.listen()
        (records / "link.json").symlink_to("socket.json")
        seen = read(records)
    assert seen["scanned"] == [f"{records}/socket.json: file: is a socket, not a regular file: skipped"]
    assert seen["loaded"] == [f"{records}/link.json: file: is a socket, not a regular file: skipped"]


def test_a_symlink_to_dev_zero_is_refused_and_never_read(records):
    (records / "zero.json").symlink_to("/dev/zero")
    seen = read(records)
    assert seen["loaded"] == [f"{records}/zero.json: file: points outside the records folder"]
    # Digested as it is refused, without reading a byte: in the build's read stage
    # (which knows the records folder) and on its own (which does not).
    assert seen["file_digests"] == {"zero.json": "unreadable: points outside the records folder"}
    assert seen["file_digest"] == ["unreadable: is a character device, not a regular file: skipped"]


def test_a_symlink_to_a_file_outside_is_digested_without_reading_it(records, tmp_path):
    (tmp_path / "secret.json").write_text('{"token": "x"}')
    (records / "link.json").symlink_to(tmp_path / "secret.json")
    seen = read(records)
    assert seen["loaded"] == [f"{records}/link.json: file: points outside the records folder"]
    assert seen["file_digests"] == {"link.json": "unreadable: points outside the records folder"}


def test_a_symlink_inside_is_read_and_digested_as_its_target(records):
    (records / "real.json").write_text('{"a": 1}')
    (records / "alias.json").symlink_to("real.json")
    seen = read(records)
    assert seen["loaded"] == [f"{records}/alias.json: loaded", f"{records}/real.json: loaded"]
    assert seen["file_digest"][0] == seen["file_digest"][1] == seen["file_digests"]["alias.json"]


def test_a_symlink_loop_is_reported_and_the_rest_is_loaded(records):
    (records / "a.json").symlink_to("b.json")
    (records / "b.json").symlink_to("a.json")
    (records / "good.json").write_text('{"a": 1}')
    seen = read(records)
    assert seen["loaded"] == [f"{records}/a.json: file: symbolic link loop: it never reaches a file",
                              f"{records}/b.json: file: symbolic link loop: it never reaches a file",
                              f"{records}/good.json: loaded"]
    assert seen["file_digest"][:2] == ["unreadable: symbolic link loop: it never reaches a file"] * 2


def test_a_3_gb_sparse_file_is_refused_from_its_size_and_never_read(records):
    with open(records / "huge.json", "wb") as huge:
        huge.truncate(3 << 30)  # no disk used: a hole
    seen = read(records)  # with 1 GiB of address space, reading it whole would fail
    assert seen["loaded"] == [f"{records}/huge.json: file: file is 3072.0 MB, over the 5 MB limit"]
    assert seen["file_digest"] == ["unreadable: file is 3072.0 MB, over the 5 MB limit"]
    assert seen["file_digests"] == {"huge.json": "unreadable: file is 3072.0 MB, over the 5 MB limit"}


def test_a_file_removed_after_the_scan_is_reported_as_removed(records):
    (records / "gone.json").write_text('{"a": 1}')
    (records / "kept.json").write_text('{"b": 2}')
    scan = scan_records(records)
    (records / "gone.json").unlink()
    root = records.resolve()
    assert [str(raw.problem) if raw.problem else raw.data for raw in (load_file(f.path, root) for f in scan.files)] == \
        [f"{records}/gone.json: file: no longer exists: removed while the build ran", {"b": 2}]
    assert file_digest(records / "gone.json") == "unreadable: no longer exists: removed while the build ran"


def test_a_symlink_removed_after_the_scan_is_reported_as_removed(records):
    (records / "real.json").write_text('{"a": 1}')
    (records / "link.json").symlink_to("real.json")
    scan = scan_records(records)
    (records / "link.json").unlink()
    names = [file.relative for file in scan.files]
    assert str(load_file(scan.files[0].path, records.resolve()).problem) == \
        f"{records}/link.json: file: no longer exists: removed while the build ran"
    assert file_digests(scan.files, names, {}, 0, dict.fromkeys(names))[0]["link.json"] == \
        "unreadable: no longer exists: removed while the build ran"


def test_a_dangling_symlink_is_told_from_a_removed_file(records):
    (records / "dangling.json").symlink_to("nowhere.json")
    [raw] = load_records(records)
    assert str(raw.problem) == f"{records}/dangling.json: file: symbolic link to nothing: its target does not exist"


def without_file_permission_override() -> None:
    """In the child, as root: give up CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH
    (Linux), so a folder's mode 000 holds for it as for anyone. They leave the
    bounding set, or the exec of Python as root would grant them again, and the
    inheritable set (capset)."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = (ctypes.c_uint32 * 6)()
    if libc.capget(header, data) != 0:
        raise OSError(ctypes.get_errno(), "capget")
    for index in range(3):  # effective, permitted, inheritable of the first 32 capabilities
        data[index] &= ~0b110 & 0xFFFFFFFF
    if libc.capset(header, data) != 0:
        raise OSError(ctypes.get_errno(), "capset")


def test_an_unreadable_subfolder_is_reported_and_the_rest_is_read(records):
    (records / "locked").mkdir()
    (records / "locked" / "hidden.json").write_text("{}")
    (records / "good.json").write_text("{}")
    (records / "locked").chmod(0)
    try:
        if os.geteuid() != 0:
            seen = read(records)
        else:
            try:  # root reads any folder: unless it gives up the capabilities that let it
                seen = read(records, preexec_fn=without_file_permission_override)
            except subprocess.SubprocessError as error:
                pytest.skip(f"as root, and capabilities cannot be dropped here: {error}")
    finally:
        (records / "locked").chmod(0o755)
    assert seen["scanned"] == [f"{records}/locked: file: cannot read this folder: Permission denied; "
                               "its records are skipped"]
    assert seen["files"] == ["good.json"]


def test_an_unreadable_file_is_reported_and_digested_from_its_stat(records):
    (records / "locked.json").write_text("{}")
    (records / "locked.json").chmod(0)
    try:
        seen = read(records, preexec_fn=without_file_permission_override if os.geteuid() == 0 else None)
    except subprocess.SubprocessError as error:
        pytest.skip(f"as root, and capabilities cannot be dropped here: {error}")
    assert seen["loaded"] == [f"{records}/locked.json: file: cannot read: Permission denied"]
    assert seen["file_digest"] == ["unreadable: cannot read: Permission denied"]


def test_the_output_folder_inside_the_records_folder_is_not_read(records):
    (records / "real.json").write_text("{}")
    (records / "site" / "x").mkdir(parents=True)
    (records / "site" / "x" / "record.json").write_text("{}")
    (records / "sites").mkdir()  # a name alike is no reason to skip
    (records / "sites" / "other.json").write_text("{}")
    assert [f.relative for f in scan_records(records).files] == ["real.json", "site/x/record.json", "sites/other.json"]
    assert scan_records(records, (records / "site").resolve()) == \
        ([f for f in scan_records(records).files if f.relative != "site/x/record.json"], [], ("site/ (the output)",))
    assert [f.relative for f in scan_records(records, (records / "site").resolve()).files] == \
        ["real.json", "sites/other.json"]


def test_a_skip_folder_not_made_yet_skips_nothing(records):
    (records / "real.json").write_text("{}")
    assert [f.relative for f in scan_records(records, records / "site").files] == ["real.json"]


def test_check_reports_each_unreadable_file_once_and_checks_the_rest(records):
    shutil.copy(GOOD, records / GOOD.name)
    (records / "a.json").symlink_to("b.json")
    (records / "b.json").symlink_to("a.json")
    os.mkfifo(records / "pipe.json")
    (records / "zero.json").symlink_to("/dev/zero")
    done = subprocess.run([sys.executable, "build.py", "check", "--records", records], cwd=ROOT,
                          capture_output=True, text=True, timeout=HANG_GUARD)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [f"{records}/a.json: file: symbolic link loop: it never reaches a file",
                                        f"{records}/b.json: file: symbolic link loop: it never reaches a file",
                                        f"{records}/pipe.json: file: is a FIFO, not a regular file: skipped",
                                        f"{records}/zero.json: file: points outside the records folder"]
    assert done.stderr == "checked 5 files: 4 with problems, 1 record would be built\n"


def test_a_build_reports_each_unreadable_file_and_builds_the_rest(records, tmp_path):
    shutil.copy(GOOD, records / GOOD.name)
    (records / "a.json").symlink_to("b.json")
    (records / "b.json").symlink_to("a.json")
    (records / "zero.json").symlink_to("/dev/zero")
    os.mkfifo(records / "pipe")
    (records / "pipe.json").symlink_to("pipe")
    done = subprocess.run([sys.executable, "build.py", "--records", records, "--out", tmp_path / "site",
                           "--base-url", "http://localhost:8000/"], cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [f"{records}/a.json: file: symbolic link loop: it never reaches a file",
                                        f"{records}/b.json: file: symbolic link loop: it never reaches a file",
                                        f"{records}/pipe.json: file: is a FIFO, not a regular file: skipped",
                                        f"{records}/zero.json: file: points outside the records folder"]
    assert done.stdout.startswith("built 1 record, skipped 4")


# --- what is no place for records (issue 40: `check --records .` read the built site) ---------

def test_dot_folders_node_modules_and_built_sites_are_not_read(records):
    for name in ("real.json", "a/real.json", ".github/workflows/ci.json", "node_modules/pkg/package.json",
                 "a/node_modules/x.json", "public/-/api/repos.json", "public/.errorsite.json", "site/x.json",
                 ".site.spare/x.json"):
        (records / name).parent.mkdir(parents=True, exist_ok=True)
        (records / name).write_text("{}")
    scan = scan_records(records, records / "site")
    assert [f.relative for f in scan.files] == ["a/real.json", "real.json"]
    assert scan.problems == []
    # the build's own folder beside its output (.site.spare) is skipped without a word
    assert scan.skipped == (".github/", "a/node_modules/", "node_modules/", "public/ (a built site)",
                            "site/ (the output)")
    assert skipped_note(scan.skipped) == ("not read as records: .github/, a/node_modules/, node_modules/, "
                                          "public/ (a built site), site/ (the output)")
    assert [raw.path for raw in load_records(records, records / "site")] == \
        [f"{records}/a/real.json", f"{records}/real.json"]


def test_the_skipped_line_names_five_and_counts_the_rest():
    assert skipped_note(()) is None
    assert skipped_note(tuple(f".d{i}/" for i in range(7))) == \
        "not read as records: .d0/, .d1/, .d2/, .d3/, .d4/ and 2 more"


def test_the_records_folder_itself_is_read_whatever_its_name(tmp_path):
    folder = tmp_path / ".records"
    folder.mkdir()
    (folder / "a.json").write_text("{}")
    assert [f.relative for f in scan_records(folder).files] == ["a.json"]


def test_an_empty_records_folder_is_an_error(records):
    (records / "notes.txt").write_text("no records here")
    with pytest.raises(NoRecordFiles, match=f"^--records: no record files \\(\\*.json\\) in {records}$"):
        check_not_empty(records, len(scan_records(records).files), ())
    (records / "node_modules").mkdir()
    (records / "node_modules" / "x.json").write_text("{}")
    scan = scan_records(records)
    with pytest.raises(NoRecordFiles, match="outside the folders skipped$"):
        check_not_empty(records, len(scan.files) + len(scan.problems), scan.skipped)
