/* Random playouts of the compiled core without Python in the loop, for benchmarks/peers.py
 * (--edwisdom-rust): what FastGame.deal(seed), FastGame.playout(seed) and FastGame.scores()
 * do, through the same exported functions, so that the core is timed as the peer's Rust core is
 * (a native loop around its own functions). Linux/POSIX only, like the benchmark.
 *
 * usage: core_driver LIB RULES FIELDS TOTAL plain|scored GAMES WARM
 *   LIB     the built core; RULES a file of the int64s fg_rules_new reads (fast._rules_array)
 *   FIELDS  int32s per seat that fg_score writes; TOTAL the index of the total among them
 * Prints one JSON line: games, steps, cpu (CLOCK_PROCESS_CPUTIME_ID around the timed games,
 * seeds 0..GAMES-1, after WARM games of other seeds), wall, checksum (the sum of the totals),
 * deferred (games whose longest trail fg_score leaves to Python: counted, not scored).
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void *(*rules_new_fn)(const int64_t *, int64_t);
typedef void *(*new_fn)(const void *);
typedef int (*setup_fn)(void *, uint64_t, int32_t);
typedef int64_t (*playout_fn)(void *, uint64_t, int64_t);
typedef int (*score_fn)(const void *, const int32_t *, int32_t *);

static setup_fn setup;
static playout_fn playout;
static score_fn score;

static double seconds(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct {
    long long steps, checksum, deferred;
} Totals;

static Totals run(void *game, int scored, int players, int fields, int total, uint64_t first,
                  uint64_t games) {
    Totals t = {0, 0, 0};
    int32_t out[64 * 16];
    for (uint64_t seed = first; seed < first + games; seed++) {
        if (setup(game, seed, -1)) {
            fprintf(stderr, "fg_setup refused seed %llu\n", (unsigned long long)seed);
            exit(1);
        }
        t.steps += playout(game, seed, (int64_t)1 << 62);
        if (!scored) continue;
        int rc = score(game, NULL, out);
        if (rc > 0) {
            fprintf(stderr, "fg_score: a running score disagrees (seed %llu)\n",
                    (unsigned long long)seed);
            exit(1);
        }
        if (rc < 0) {
            t.deferred++;
            continue;
        }
        for (int q = 0; q < players; q++) t.checksum += out[q * fields + total];
    }
    return t;
}

int main(int argc, char **argv) {
    if (argc != 8) {
        fprintf(stderr, "usage: %s LIB RULES FIELDS TOTAL plain|scored GAMES WARM\n", argv[0]);
        return 2;
    }
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 1;
    }
    rules_new_fn rules_new = NULL;
    new_fn new_game = NULL;
    /* POSIX's way from dlsym's object pointer to a function pointer, without an ISO C cast. */
#define LOAD(fn, name)                                                                         \
    do {                                                                                       \
        void *found = dlsym(lib, name);                                                        \
        memcpy(&(fn), &found, sizeof(fn));                                                     \
    } while (0)
    LOAD(rules_new, "fg_rules_new");
    LOAD(new_game, "fg_new");
    LOAD(setup, "fg_setup");
    LOAD(playout, "fg_playout");
    LOAD(score, "fg_score");
#undef LOAD
    if (!rules_new || !new_game || !setup || !playout || !score) {
        fprintf(stderr, "%s lacks an fg_ function\n", argv[1]);
        return 1;
    }
    FILE *f = fopen(argv[2], "r");
    if (!f) {
        perror(argv[2]);
        return 1;
    }
    int64_t cap = 1 << 16, n = 0;
    int64_t *v = malloc(sizeof(int64_t) * (size_t)cap);
    long long x;
    while (v && n < cap && fscanf(f, "%lld", &x) == 1) v[n++] = x;
    fclose(f);
    void *rules = v ? rules_new(v, n) : NULL;
    void *game = rules ? new_game(rules) : NULL;
    if (!game) {
        fprintf(stderr, "the core refused the rules in %s\n", argv[2]);
        return 1;
    }
    int players = (int)v[0], fields = atoi(argv[3]), total = atoi(argv[4]);
    int scored = strcmp(argv[5], "scored") == 0;
    if ((!scored && strcmp(argv[5], "plain")) || players < 1 || players > 64 || fields < 1 ||
        fields > 16 || total < 0 || total >= fields) {
        fprintf(stderr, "bad arguments\n");
        return 2;
    }
    uint64_t games = strtoull(argv[6], NULL, 10), warm = strtoull(argv[7], NULL, 10);
    run(game, scored, players, fields, total, (uint64_t)1 << 40, warm);
    double wall = seconds(CLOCK_MONOTONIC), cpu = seconds(CLOCK_PROCESS_CPUTIME_ID);
    Totals t = run(game, scored, players, fields, total, 0, games);
    cpu = seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu;
    wall = seconds(CLOCK_MONOTONIC) - wall;
    printf("{\"games\": %llu, \"steps\": %lld, \"cpu\": %.6f, \"wall\": %.6f, \"checksum\": %lld, "
           "\"deferred\": %lld}\n",
           (unsigned long long)games, t.steps, cpu, wall, t.checksum, t.deferred);
    return 0;
}
