"""What an agent reads when a build fails: first errors, its own paths, no command lines."""

from __future__ import annotations

from agentkernelarena.native.errors import MAX_ERRORS, format_compiler_output

SRC = "/tmp/eval-123/task"
FLAGS = " ".join(f"-isystem /usr/include/x{i}" for i in range(40))
NVCC_LOG = f"""\
[1/2] /usr/local/cuda/bin/nvcc {FLAGS} -c {SRC}/kernel.cu -o kernel.cuda.o
FAILED: kernel.cuda.o
/usr/local/cuda/bin/nvcc {FLAGS} -c {SRC}/kernel.cu -o kernel.cuda.o
{SRC}/kernel.cu(12): warning #177-D: variable "unused" was declared but never referenced
    int unused;
        ^
{SRC}/kernel.cu(14): error: identifier "y" is undefined
    x[i] = y;
           ^

1 error detected in the compilation of "{SRC}/kernel.cu".
ninja: build stopped: subcommand failed.
"""

CLANG_LOG = f"""\
In file included from {SRC}/kernel.hip:3:
{SRC}/common.h:5:10: error: unknown type name 'flaot'
  inline flaot twice(float v) {{ return 2 * v; }}
         ^
{SRC}/kernel.hip:9:3: error: no matching function for call to 'twice'
  twice();
  ^~~~~
{SRC}/common.h:5:16: note: candidate function not viable: requires 1 argument, but 0 were provided
2 errors generated when compiling for gfx90a.
"""


def test_nvcc_errors_are_relative_normalized_and_trimmed() -> None:
    report, selected, log = format_compiler_output(NVCC_LOG, {f"{SRC}/": ""})
    assert report.splitlines() == [
        'kernel.cu:14: error: identifier "y" is undefined',
        "    x[i] = y;",
        "           ^",
        '1 error detected in the compilation of "kernel.cu".',
    ]
    assert SRC not in log and "kernel.cu(12): warning" in log


def test_clang_errors_keep_their_notes() -> None:
    report, _, _ = format_compiler_output(CLANG_LOG, {f"{SRC}/": ""})
    lines = report.splitlines()
    assert lines[0] == "common.h:5:10: error: unknown type name 'flaot'"
    assert "kernel.hip:9:3: error: no matching function for call to 'twice'" in lines
    assert any(ln.startswith("common.h:5:16: note:") for ln in lines)
    assert lines[-1] == "2 errors generated when compiling for gfx90a."
    assert not any(ln.startswith("In file included") for ln in lines)


def test_many_errors_are_cut_after_the_first_ones() -> None:
    log = "".join(f"k.cu({i}): error: bad thing {i}\n  code\n  ^\n" for i in range(1, 30))
    report, _, _ = format_compiler_output(log, {})
    assert f"k.cu:{MAX_ERRORS}: error: bad thing {MAX_ERRORS}" in report
    assert f"k.cu:{MAX_ERRORS + 1}:" not in report
    assert f"({29 - MAX_ERRORS} more errors not shown)" in report


def test_link_errors_without_file_lines_are_kept() -> None:
    log = (
        "[2/2] c++ kernel.cuda.o -shared -o k.so\nFAILED: k.so\n"
        "/usr/bin/ld: kernel.cuda.o: in function `f()':\n"
        "kernel.cu:(.text+0x1c): undefined reference to `g()'\n"
        "collect2: error: ld returned 1 exit status\n"
    )
    report, _, _ = format_compiler_output(log, {})
    assert "undefined reference to `g()'" in report
    assert "ld returned 1 exit status" in report
    assert "FAILED" not in report
