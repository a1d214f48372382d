"""The core-count comparison of the rooms workload (bench/run.py --server-cores 0/0,1): each
core set's CPU per set against the first set's, repetition by repetition. Within a repetition
the daemon runs on each core set one after the other, so each pair was measured minutes apart at
most, under the same conditions; the median over repetitions says how much a core set costs
per set against the first."""

import statistics

from rooms import FLOOR


def comparison(rows, fmt):
    """Markdown lines of the comparison, or none when the rows hold one core set."""
    # (--rerender reads core list 0 back as the number 0)
    runs = [r for r in rows if r.get("workload") == "rooms" and r.get("system") != FLOOR
            and r.get("cores") not in (None, "") and r.get("server_us_per_update") not in (None, "")]
    sets = list(dict.fromkeys(str(r["cores"]) for r in runs))
    if len(sets) < 2:
        return []
    lines = ["## Cores: CPU per set on each core set against the first", "",
             f"The daemon ran on each core set in turn within every repetition, with one transport thread and "
             f"one worker per core; `× {sets[0]}` is the core set's µs/set over core set {sets[0]}'s in the same "
             f"repetition, `median ×` their median, `within 10 %` how many repetitions' ratios lie in 0.9–1.1.", "",
             f"| daemon | rooms | adv/s | cores | µs/set by repetition | × {sets[0]} by repetition | median × | "
             "within 10 % |", "|---|---:|---:|---|---|---|---:|---:|"]
    cells = dict.fromkeys((r["system"], r.get("daemon", ""), r["N"], r.get("room_rate")) for r in runs)
    for cell in cells:
        by_set = {}
        for r in runs:
            if (r["system"], r.get("daemon", ""), r["N"], r.get("room_rate")) == cell:
                by_set.setdefault(str(r["cores"]), {})[int(r["rep"])] = float(r["server_us_per_update"])
        first = by_set.get(sets[0], {})
        for cores in sets:
            measured = by_set.get(cores, {})
            reps = sorted(rep for rep in measured if rep in first)
            ratios = [measured[rep] / first[rep] for rep in reps]
            system, daemon, n, rate = cell
            lines.append("| " + " | ".join([
                f"`{daemon}`" + (" .riv" if system.endswith("-riv") else ""), fmt(n), fmt(rate), cores,
                " / ".join(fmt(measured[rep], 1) for rep in sorted(measured)),
                "–" if cores == sets[0] else " / ".join(f"{ratio:.3f}" for ratio in ratios),
                "–" if cores == sets[0] or not ratios else f"{statistics.median(ratios):.3f}",
                "–" if cores == sets[0] else f"{sum(0.9 <= ratio <= 1.1 for ratio in ratios)} of {len(ratios)}"]) + " |")
    return lines + [""]
