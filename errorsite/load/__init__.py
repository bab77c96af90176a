"""Step 1, load: read every `*.json` under the records folder into raw JSON values.

This is one of the two steps that touch the disk. It never judges a record's
content; it only turns bytes into JSON or into a Problem naming the file.
scan.py finds the record files, files.py reads one safely, digests.py tells
which changed since the last build, own_files.py reads what the generator
itself supplies or wrote.
"""
from __future__ import annotations

from .digests import SETTLED_NS, file_digest, file_digests, trusted_stats
from .files import MAX_FILE_BYTES, RawRecord, bytes_digest, load_file, parse_json, printable, read_record_bytes
from .own_files import load_json, load_static, load_url_manifest, parse_url_manifest, read_lines, read_url_manifest
from .scan import (NoRecordFiles, RecordFile, Scan, check_not_empty, find_record_files, load_records, read_records,
                   record_files, scan_records, skipped_note, skipped_notes)

__all__ = ["MAX_FILE_BYTES", "SETTLED_NS", "NoRecordFiles", "RawRecord", "RecordFile", "Scan", "bytes_digest",
           "check_not_empty", "file_digest", "file_digests", "find_record_files", "load_file", "load_json",
           "load_records", "load_static", "load_url_manifest", "parse_json", "parse_url_manifest", "printable",
           "read_lines", "read_record_bytes", "read_url_manifest", "read_records", "record_files", "scan_records", "skipped_note", "skipped_notes", "trusted_stats"]
