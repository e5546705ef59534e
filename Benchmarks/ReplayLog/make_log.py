#!/usr/bin/env python3
"""Writes a Core Data SQL log (SQLDebug level 2) of N statements for the suite's publications
preset, as an app that fetches, faults, counts, scrolls a batched list and saves would log it,
the app's own lines between: the input of `bench replay`'s size benchmark (docs/replay.md).

usage: make_log.py N OUT.log [SEED]
"""
import random
import sys

ALL = ("t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZCREATEDATE, t0.ZPUBLISHDATE, t0.ZTITLE, t0.ZUID, t0.ZUPDATEDATE, "
       "t0.ZDOI, t0.ZPAPERTYPE, t0.ZBLOGNAME, t0.ZURL, t0.ZISBN, t0.ZPAGECOUNT, t0.ZURL1, t0.ZWORDCOUNT")
BOOK = "t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZCREATEDATE, t0.ZPUBLISHDATE, t0.ZTITLE, t0.ZUID, t0.ZUPDATEDATE, 0, 0, 0, 0, t0.ZISBN, t0.ZPAGECOUNT"


def timing(out, rng, rows, count=False):
    seconds = rng.uniform(0.0001, 0.01)
    if count:
        out.append(f"CoreData: annotation: total count request execution time: {seconds:.4f}s for count of {rows}.")
    else:
        out.append(f"CoreData: annotation: sql connection fetch time: {seconds * 0.8:.4f}s")
        out.append(f"CoreData: annotation: total fetch execution time: {seconds:.4f}s for {rows} rows.")


def episode(rng):
    """One thing the app does, as the lines Core Data logs for it, and how many statements."""
    out, kind = [], rng.randrange(6)
    if kind == 0:
        out.append(f"CoreData: sql: SELECT {BOOK} FROM ZPUBLICATION t0 WHERE  t0.ZISBN = ? AND  t0.Z_ENT = ?")
        out.append(f'CoreData: details: SQLite bind[0] = "978{rng.randrange(10**10):010d}"')
        out.append("CoreData: details: SQLite bind[1] = (int64)4")
        timing(out, rng, 1)
        return out, 1
    if kind == 1:
        key = rng.randrange(1, 50000)
        out.append(f"CoreData: sql: SELECT {ALL} FROM ZPUBLICATION t0 WHERE  t0.Z_PK = ?")
        out.append(f"CoreData: details: SQLite bind[0] = (int64){key}")
        timing(out, rng, 1)
        out.append(f"CoreData: annotation: fault fulfilled from database for : 0x{rng.randrange(16**12):x} <x-coredata://5E0C1B52-0000-4000-8000-00000000AB12/Book/p{key}>")
        return out, 1
    if kind == 2:
        out.append("CoreData: sql: SELECT COUNT(*) FROM ZPUBLICATION t0 WHERE  t0.ZPAGECOUNT > ? AND  t0.Z_ENT = ?")
        out.append(f"CoreData: details: SQLite bind[0] = (int64){rng.randrange(100, 900)}")
        out.append("CoreData: details: SQLite bind[1] = (int64)4")
        timing(out, rng, rng.randrange(5000), count=True)
        return out, 1
    if kind == 3:
        out.append("CoreData: sql: SELECT t0.Z_ENT, t0.Z_PK FROM ZPUBLICATION t0 ORDER BY t0.ZPUBLISHDATE DESC, t0.ZUID DESC")
        timing(out, rng, 50000)
        batches = rng.randrange(1, 4)
        for _ in range(batches):
            out.append("CoreData: annotation: Bound intarray _Z_intarray0")
            out.append("CoreData: annotation: Bound intarray values.")
            out.append(f"CoreData: sql: SELECT {ALL} FROM ZPUBLICATION t0 WHERE  t0.Z_PK IN (SELECT * FROM _Z_intarray0)  LIMIT 20")
            timing(out, rng, 20)
        return out, 1 + batches
    if kind == 4:
        key = rng.randrange(1, 50000)
        out.append("CoreData: sql: SELECT 0, t0.Z_PK FROM Z_1TAGS t1 JOIN ZTAG t0 ON t0.Z_PK = t1.Z_6TAGS WHERE t1.Z_1PUBLICATIONS = ? ")
        out.append(f"CoreData: details: SQLite bind[0] = (int64){key}")
        timing(out, rng, 3)
        out.append(f'CoreData: annotation: to-many relationship fault "tags" for objectID 0x{rng.randrange(16**12):x} '
                   f"<x-coredata://5E0C1B52-0000-4000-8000-00000000AB12/Book/p{key}> fulfilled from database.  Got 3 rows")
        return out, 1
    out += ["CoreData: sql: BEGIN EXCLUSIVE",
            "CoreData: sql: UPDATE OR FAIL ZPUBLICATION SET ZTITLE = ?, Z_OPT = ?  WHERE Z_PK = ? AND Z_OPT = ?",
            f'CoreData: details: SQLite bind[0] = "title {rng.randrange(10**6)}"',
            "CoreData: sql: COMMIT"]
    return out, 3


def main():
    total, path = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    written = 0
    with open(path, "w") as log:
        log.write('CoreData: annotation: Connecting to sqlite database file at "/private/var/App.sqlite"\n')
        while written < total:
            lines, statements = episode(rng)
            log.write("\n".join(lines) + "\n")
            written += statements
            if rng.random() < 0.1:
                log.write(f"app: screen {rng.randrange(20)} shown\n")


if __name__ == "__main__":
    main()
