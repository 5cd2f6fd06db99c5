/* The engine of the compiled core: the game itself (engine.c), final scoring (scoring.c), and
 * observations, the action codec and batch stepping for the learning environments (observe.c).
 * What the policies (policies.c) and the search (search.c) build on is declared here too.
 */
#ifndef TTR_FAST_ENGINE_H
#define TTR_FAST_ENGINE_H

#include "core.h"
#ifdef _MSC_VER
#include <intrin.h>
#endif

/* Why an action is refused: fast/__init__.py maps each code to the reference's error. */
enum {
    OK, E_OVER, E_PHASE, E_SLOT, E_D3, E_R15B, E_R19, E_ROUTE, E_PAYTYPE, E_R23, E_R26A,
    E_R26B, E_R22, E_R21_PAY, E_R27, E_R21_HOLD, E_R28_COUNT, E_R30, E_R29, E_R28_HOLD,
    E_NO_STATIONS, E_CITY, E_R40_ALL, E_R40_CITY, E_R41_PAY, E_R41_HOLD, E_D11, E_TICKET,
    E_R9_FEW, E_R37_FEW, E_B4, E_D1, E_KIND
};

/* A seat's figures as fg_score writes them (fast/__init__.py's SeatScore), SC_FIELDS a seat. */
enum { SC_ROUTES, SC_TICKETS, SC_COMPLETED, SC_STATIONS, SC_PATH, SC_BONUS, SC_TOTAL, SC_RANK,
       SC_FIELDS };

/* ------------------------------------------------------------------ exported (engine.c) */

FG_API uint64_t fg_source_hash(void);
FG_API Rules *fg_rules_new(const int64_t *v, int64_t n);
FG_API void fg_rules_free(Rules *R);
FG_API Game *fg_new(const Rules *R);
FG_API void fg_free(Game *g);
FG_API void fg_copy(Game *dst, const Game *src);
FG_API int fg_setup(Game *g, uint64_t seed, int32_t first);
FG_API int64_t fg_dump(const Game *g, int64_t *out, int64_t cap);
FG_API int fg_load(Game *g, const int64_t *v, int64_t n);
FG_API int64_t fg_legal_count(const Game *g);
FG_API int64_t fg_legal(const Game *g, int64_t first, Act *out, int64_t cap);
FG_API int fg_apply(Game *g, const Act *a);
FG_API int32_t fg_phase(const Game *g);
FG_API int32_t fg_current(const Game *g);
FG_API int32_t fg_offer(const Game *g, int32_t *out);
FG_API int64_t fg_playout(Game *g, uint64_t seed, int64_t max_steps);

/* ------------------------------------------------------------------ exported (scoring.c) */

FG_API int fg_score(const Game *g, const int32_t *paths, int32_t *out);

/* ------------------------------------------------------------------ exported (observe.c) */

FG_API void fg_observe(const Game *g, const int32_t *L, const int32_t *C, float *obs,
                       uint8_t *mask);
FG_API int fg_encode(const Game *g, int32_t seat, const int32_t *L, float *obs);
FG_API void fg_mask(const Game *g, const int32_t *C, uint8_t *mask);
FG_API int fg_apply_code(Game *g, const int32_t *C, int64_t code);
FG_API int64_t fg_batch_step(Game **games, int64_t n, const int64_t *codes, const int32_t *L,
                             const int32_t *C, float *obs, uint8_t *mask, float *returns,
                             uint8_t *done, uint64_t *next_seed);
FG_API int fg_batch_seat(Game *const *games, int64_t n, int32_t seat, const int32_t *L,
                         const int32_t *C, float *obs, uint8_t *mask);
FG_API void fg_known(const Game *g, int32_t *out);

/* ------------------------------------------------------------------ within the core */

/* A seat's legal actions, counted by part without listing them: nth_action lists the i-th. */
typedef struct {
    int32_t nhead;
    int32_t head_kind[MAXROW + 3 + 1], head_arg[MAXROW + 3 + 1];
    int64_t claims;             /* claim actions in all */
    int32_t nk, kind[MAXR], kroutes[MAXR], kpays[MAXR];
    int64_t kend[MAXR];
    int32_t free_cities, station_pays;
    int64_t keep;               /* keep choices (ticket phases) */
    int32_t tunnel_pays;        /* payments of the tunnel's extra (tunnel phase) */
    int64_t total;
} Legal;

/* The generator (_rng.py): below(n) of a SplitMix64 state. */
FG_HIDDEN uint64_t below(uint64_t *s, uint64_t n);

/* Payments (_payments.py). */
FG_HIDDEN int32_t count_pay(int32_t colour, int32_t len, int32_t minl, const int32_t *hand);
FG_HIDDEN int nth_pay(int32_t colour, int32_t len, int32_t minl, const int32_t *hand,
                      int32_t index, int32_t *out);
FG_HIDDEN int32_t pay_colour(const int32_t *pay);

/* Legal actions (legal.py), the checks and the reducer (rules.py). */
FG_HIDDEN void legal(const Game *g, Legal *L);
FG_HIDDEN int nth_action(const Game *g, const Legal *L, int64_t i, Act *out);
FG_HIDDEN int64_t keep_walk(const Game *g, int64_t target, int32_t *mask_out);
/* Places kept by each KeepTickets choice, by size then places (itertools.combinations):
 * the count, and the mask of choice target in *mask_out; with all non-NULL, every mask in
 * order into all (one walk, for listing them all). */
FG_HIDDEN int64_t keep_walk_all(const Game *g, int64_t target, int32_t *mask_out, int32_t *all);
FG_HIDDEN int check(const Game *g, const Act *a);
FG_HIDDEN void step(Game *g, const Act *a);

static inline int32_t total9(const int32_t *a) {
    int32_t t = 0;
    for (int k = 0; k < KINDS; k++) t += a[k];
    return t;
}

/* Whether a card can be drawn: the pile, else the discards reshuffled (_dealing.py). */
static inline int cards_left(const Game *g) {
    return g->top < g->npile || total9(g->discard) > 0;
}

static inline int is_closed(const Game *g, int32_t seat, int32_t r) {
    return (int)((g->closed[seat][r >> 6] >> (r & 63)) & 1);
}

/* Bits set, portably fast (the builtin is a library call without a popcnt instruction). */
static inline int32_t pop64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int32_t)((x * 0x0101010101010101ULL) >> 56);
}

/* The index of the lowest set bit of a nonzero word (MSVC has no __builtin_ctzll). */
static inline int32_t ctz64(uint64_t x) {
#ifdef _MSC_VER
    unsigned long i;
    _BitScanForward64(&i, x);
    return (int32_t)i;
#else
    return __builtin_ctzll(x);
#endif
}

#endif
