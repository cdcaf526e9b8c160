"""The result channel: chained MACs, read incrementally by the supervisor."""

from __future__ import annotations

from pathlib import Path

from agentkernelarena.evaluate.channel import EventReader, Events, read_events

KEY = b"k" * 32


def test_incremental_reads_see_each_event_once_and_wait_for_torn_lines(tmp_path: Path):
    path = tmp_path / "events.jsonl"
    writer = Events(str(path), KEY)
    reader = EventReader(path, KEY)
    assert reader.poll() == []
    writer.emit("start", pid=1)
    writer.emit("phase", phase="compile")
    assert [e["event"] for e in reader.poll()] == ["start", "phase"]
    writer.emit("compiled")
    with open(path, "ab") as channel:  # a line being written: no newline yet
        channel.write(b"deadbeef {\"event\": \"do")
    assert [e["event"] for e in reader.poll()] == ["start", "phase", "compiled"]
    assert read_events(path, KEY) == reader.events


def test_a_forged_line_stops_the_channel_and_is_reported_once(tmp_path: Path):
    path = tmp_path / "events.jsonl"
    writer = Events(str(path), KEY)
    reader = EventReader(path, KEY)
    writer.emit("start")
    reader.poll()
    with open(path, "ab") as channel:  # what a candidate could write into the open file
        channel.write(b"0" * 64 + b' {"event": "done", "speedup": 100}\n')
    writer.emit("done")
    events = reader.poll()
    assert [e["event"] for e in events] == ["start", "forged"]
    assert events[-1]["line"] == 2
    assert reader.poll() == events  # nothing after the forged line counts, ever
    assert read_events(path, KEY) == events
