// The yardstick for `bench run --data store`'s copy into single-table: a plain SQLite C program
// that copies the same rows into the same tables, with the same settings as the suite's stores
// (WAL, synchronous NORMAL) and the same number of rows per transaction, timing only the inserts
// (BEGIN … COMMIT), as insert-bulk times only its transactions.
//
//   cc -O2 -o plain_copy plain_copy.c -lsqlite3
//   ./plain_copy SOURCE.sqlite DEST.sqlite [ROWS_PER_TRANSACTION]
//
// SOURCE is opened read-only and immutable. DEST gets SOURCE's CREATE TABLE and CREATE INDEX
// statements (every table of the store: its entities' tables, its join tables and Core Data's
// bookkeeping), then, table by table in rowid order, every row: read ROWS_PER_TRANSACTION rows
// into memory (untimed), insert them in one transaction (timed). Prints the rows, the seconds
// spent inserting, the rows per second and DEST's size. No value of a row is printed.
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static void fail(sqlite3 *db, const char *what) {
    fprintf(stderr, "plain_copy: %s: %s\n", what, db ? sqlite3_errmsg(db) : "out of memory");
    exit(1);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void exec(sqlite3 *db, const char *sql) {
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) fail(db, sql);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: plain_copy SOURCE.sqlite DEST.sqlite [ROWS_PER_TRANSACTION]\n");
        return 64;
    }
    int batch = argc > 3 ? atoi(argv[3]) : 1000;
    if (batch < 1) { fprintf(stderr, "plain_copy: ROWS_PER_TRANSACTION must be at least 1\n"); return 64; }
    char uri[4096];
    snprintf(uri, sizeof uri, "file:%s?mode=ro&immutable=1", argv[1]);
    sqlite3 *source, *dest;
    if (sqlite3_open_v2(uri, &source, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) != SQLITE_OK) fail(source, "opening SOURCE");
    remove(argv[2]);
    if (sqlite3_open(argv[2], &dest) != SQLITE_OK) fail(dest, "opening DEST");
    exec(dest, "PRAGMA journal_mode = wal; PRAGMA synchronous = NORMAL");

    // The schema: tables first, then indexes, as SOURCE has them.
    sqlite3_stmt *schema;
    if (sqlite3_prepare_v2(source, "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' "
                                   "ORDER BY type = 'index', rowid", -1, &schema, NULL) != SQLITE_OK) fail(source, "reading the schema");
    while (sqlite3_step(schema) == SQLITE_ROW) exec(dest, (const char *)sqlite3_column_text(schema, 0));
    sqlite3_finalize(schema);

    sqlite3_stmt *tables;
    if (sqlite3_prepare_v2(source, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid", -1, &tables, NULL) != SQLITE_OK)
        fail(source, "listing the tables");
    long long rows = 0;
    double inserting = 0;
    sqlite3_value **held = NULL;
    while (sqlite3_step(tables) == SQLITE_ROW) {
        char table[1024], sql[8192];
        snprintf(table, sizeof table, "%s", (const char *)sqlite3_column_text(tables, 0));
        snprintf(sql, sizeof sql, "SELECT * FROM \"%s\" ORDER BY rowid", table);
        sqlite3_stmt *read, *insert;
        if (sqlite3_prepare_v2(source, sql, -1, &read, NULL) != SQLITE_OK) {
            // A WITHOUT ROWID table: its own order.
            snprintf(sql, sizeof sql, "SELECT * FROM \"%s\"", table);
            if (sqlite3_prepare_v2(source, sql, -1, &read, NULL) != SQLITE_OK) fail(source, sql);
        }
        int columns = sqlite3_column_count(read);
        int length = snprintf(sql, sizeof sql, "INSERT INTO \"%s\" VALUES (", table);
        for (int c = 0; c < columns; c++) length += snprintf(sql + length, sizeof sql - length, c ? ", ?" : "?");
        snprintf(sql + length, sizeof sql - length, ")");
        if (sqlite3_prepare_v2(dest, sql, -1, &insert, NULL) != SQLITE_OK) fail(dest, sql);
        held = realloc(held, sizeof(sqlite3_value *) * (size_t)batch * (size_t)columns);
        if (!held) fail(NULL, "holding a batch");
        int done = 0;
        while (!done) {
            int count = 0;
            while (count < batch) {
                int step = sqlite3_step(read);
                if (step == SQLITE_DONE) { done = 1; break; }
                if (step != SQLITE_ROW) fail(source, "reading a row");
                for (int c = 0; c < columns; c++) held[count * columns + c] = sqlite3_value_dup(sqlite3_column_value(read, c));
                count++;
            }
            if (count == 0) break;
            double start = now();
            exec(dest, "BEGIN");
            for (int r = 0; r < count; r++) {
                for (int c = 0; c < columns; c++) sqlite3_bind_value(insert, c + 1, held[r * columns + c]);
                if (sqlite3_step(insert) != SQLITE_DONE) fail(dest, "inserting a row");
                sqlite3_reset(insert);
            }
            exec(dest, "COMMIT");
            inserting += now() - start;
            for (int v = 0; v < count * columns; v++) sqlite3_value_free(held[v]);
            rows += count;
        }
        sqlite3_finalize(read);
        sqlite3_finalize(insert);
    }
    sqlite3_finalize(tables);
    free(held);
    exec(dest, "PRAGMA wal_checkpoint(TRUNCATE)");
    sqlite3_close(dest);
    sqlite3_close(source);
    struct stat size;
    stat(argv[2], &size);
    printf("plain_copy: %lld rows inserted in %.3f s (%.0f rows/s, %d rows a transaction), %lld bytes\n",
           rows, inserting, inserting > 0 ? rows / inserting : 0, batch, (long long)size.st_size);
    return 0;
}
