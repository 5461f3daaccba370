"""Run many `referee` command lines in one simulated interpreter (starting one per line would
cost the tests minutes): each through the front door (`answers.answer`), with stdout and stderr
standing in streams of the real ones' encoding and error handling, so an encoding that cannot
show a character fails here as it would on the terminal.

stdin: a JSON list of {"args": [...], "stdin": "..."}; stdout: a JSON list of
{"code": N, "out": "...", "err": "..."} (the bytes as written, read as UTF-8)."""

from __future__ import annotations

import io
import json
import sys
import traceback


def main() -> None:
    from referee import answers

    steps = json.loads(sys.stdin.buffer.read())
    real_out, real_err = sys.stdout, sys.stderr
    done = []
    for step in steps:
        out, err = io.BytesIO(), io.BytesIO()
        sys.stdout = io.TextIOWrapper(out, real_out.encoding, real_out.errors, write_through=True)
        sys.stderr = io.TextIOWrapper(err, real_err.encoding, real_err.errors, write_through=True)
        sys.stdin = io.TextIOWrapper(io.BytesIO(step.get("stdin", "").encode()), "utf-8")
        answers.tolerant_output()
        try:
            code = answers.answer(step["args"])
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 1
        except BaseException:  # a traceback is what the tests look for
            sys.stderr.write(traceback.format_exc())
            code = 99
        sys.stdout.flush()
        sys.stderr.flush()
        done.append({"code": code, "out": out.getvalue().decode("utf-8", "replace"),
                     "err": err.getvalue().decode("utf-8", "replace")})  # fmt: skip
    sys.stdout, sys.stderr = real_out, real_err
    sys.__stdout__.buffer.write(json.dumps(done).encode("ascii"))  # type: ignore[union-attr]


if __name__ == "__main__":
    main()
