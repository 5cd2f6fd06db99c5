/* The compiled core of ttr_europe: the same rules as rules.py/_table.py/_payments.py on a compact
 * mutable state, for whole playouts and bulk stepping (docs/fast.md).
 *
 * The pure-Python engine is the reference; every function here mirrors one there and the
 * differential tests (tests/fast/test_fast.py) hold the two together. Map data arrive from the
 * loaded Map as an int64 array (fg_rules_new); positions travel both ways as int64 arrays
 * (fg_load/fg_dump). Every index read from outside is checked on the way in, so a hostile
 * position or action gets an error code, never an out-of-bounds access.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef _MSC_VER
#include <intrin.h>
#endif

/* The functions fast/__init__.py calls (all else is static): a Windows DLL exports only these. */
#if defined(_WIN32)
#define FG_API __declspec(dllexport)
#elif defined(__GNUC__)
#define FG_API __attribute__((visibility("default")))
#else
#define FG_API
#endif

#define KINDS 9
#define LOCO 8
#define NO_CARD (-1)
#define NO_OWNER (-1)
#define MAXP 8
#define MAXR 256
#define MAXW (MAXR / 64)
#define MAXC 256
#define MAXT 256
#define MAXROW 16
#define MAXST 16
#define MAXOFFER 16
#define MAXPILE 1024
#define REVEAL 3
#define END_TRIGGER_TRAINS 2
#define BIG (1 << 20) /* counts above this are clamped on the way in (the answer is the same) */

enum { PH_INITIAL, PH_TURN, PH_SECOND, PH_CHOOSE, PH_TUNNEL, PH_OVER };
enum { A_FACEUP, A_BLIND, A_CLAIM, A_PAY, A_WITHDRAW, A_STATION, A_TICKETS, A_KEEP, A_PASS };

/* Why an action is refused: fast/__init__.py maps each code to the reference's error. */
enum {
    OK, E_OVER, E_PHASE, E_SLOT, E_D3, E_R15B, E_R19, E_ROUTE, E_PAYTYPE, E_R23, E_R26A,
    E_R26B, E_R22, E_R21_PAY, E_R27, E_R21_HOLD, E_R28_COUNT, E_R30, E_R29, E_R28_HOLD,
    E_NO_STATIONS, E_CITY, E_R40_ALL, E_R40_CITY, E_R41_PAY, E_R41_HOLD, E_D11, E_TICKET,
    E_R9_FEW, E_R37_FEW, E_B4, E_D1, E_KIND
};

typedef struct {
    int32_t kind, arg, pay[KINDS];
} Act;

/* The map's tie-breaks after the total (R49, R50), as fast/__init__.py codes them. */
enum { TB_COMPLETED = 1, TB_FEWEST_STATIONS, TB_BONUS_CARD, TB_PATH };

typedef struct {
    int32_t players, nroutes, ncities, ntickets;
    int32_t trains, stations, hand, face_up, threshold, reset_cap, second_optional;
    int32_t deal_long, deal_regular, keep_initial, long_limit, rejects_box, draw_tickets;
    int32_t keep_drawn, doubles_open;
    int32_t nlong, long_pool[MAXT], nreg, reg_pool[MAXT];
    int32_t r_a[MAXR], r_b[MAXR], r_len[MAXR], r_col[MAXR], r_tunnel[MAXR], r_ferry[MAXR];
    int32_t r_twin[MAXR], r_points[MAXR];
    int32_t t_long[MAXT], t_a[MAXT], t_b[MAXT], t_points[MAXT];
    int32_t station_points, bonus_points, bonus_at_zero, ntiebreaks, tiebreaks[8];
    int32_t adj_start[MAXC + 1], adj_route[2 * MAXR], adj_other[2 * MAXR]; /* Map.routes_at */
    int32_t nkinds, k_col[MAXR], k_len[MAXR], k_ferry[MAXR];
    int32_t k_run_end[MAXR]; /* the end of k's run: same colour, lengths not decreasing */
    int32_t r_kind[MAXR];    /* the kind of each route, -1 if none */
    uint16_t k_size[MAXR];   /* routes of each kind */
    uint64_t k_mask[MAXR][MAXW];
} Rules;

typedef struct {
    int32_t hand[KINDS], trains, score;
    int32_t nst, st[MAXST];
    int32_t ntk, tk[MAXT];
    int32_t noffer, offer[MAXOFFER];
} Player;

typedef struct {
    const Rules *R;
    int32_t phase, current, first;
    Player p[MAXP];
    int32_t npile, top, pile[MAXPILE];
    int32_t nrow, row[MAXROW];
    int32_t discard[KINDS];
    int32_t ndeck, deck[MAXT], nbox, box[MAXT];
    int32_t owners[MAXR];
    uint64_t closed[MAXP][MAXW]; /* set by close_route only, which keeps open in step */
    uint16_t open[MAXP][MAXR];   /* routes of each kind not closed to each seat (count_open) */
    int32_t has_tunnel, tun_route, tun_laid[KINDS], tun_nrev, tun_rev[REVEAL], tun_colour,
        tun_extra;
    uint64_t rng;
    int32_t final_turns, passes;
    int32_t known[MAXP][KINDS]; /* rl.memory.PublicHands: cards each seat was seen to take */
} Game;

/* ------------------------------------------------------------------ generator (_rng.py) */

static uint64_t next_u64(uint64_t *s) {
    *s += 0x9E3779B97F4A7C15ULL;
    uint64_t z = *s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t below(uint64_t *s, uint64_t n) { return next_u64(s) % n; }

static void shuffle(uint64_t *s, int32_t *a, int32_t n) {
    for (int32_t i = n - 1; i > 0; i--) {
        int32_t j = (int32_t)(next_u64(s) % (uint64_t)(i + 1));
        int32_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* ------------------------------------------------------------------ payments (_payments.py) */

/* Payments of colour c use top - low + 1 locomotive counts, from low = max(len - hand[c], minl)
 * to top = min(len - 1, locos): clamp(hand[c] + top + 1 - len, 0, top + 1 - minl), branch-free. */
static int32_t count_pay(int32_t colour, int32_t len, int32_t minl, const int32_t *hand) {
    int32_t locos = hand[LOCO];
    int32_t total = locos >= len ? 1 : 0;
    int32_t top = len - 1 < locos ? len - 1 : locos;
    if (colour == LOCO) return total;
    int32_t shift = top + 1 - len, cap = top + 1 - minl;
    if (colour >= 0) {
        int32_t n = hand[colour] + shift;
        n = n < cap ? n : cap;
        return total + (n > 0 ? n : 0);
    }
    for (int32_t c = 0; c < LOCO; c++) { /* gray: any one colour */
        int32_t n = hand[c] + shift;
        n = n < cap ? n : cap;
        total += n > 0 ? n : 0;
    }
    return total;
}

/* payments(colour, len, minl, hand)[index]: by colour, then locomotives used; all-locomotive
 * last. colour -1 is gray (any one colour). Returns 0, or -1 past the last. */
static int nth_pay(int32_t colour, int32_t len, int32_t minl, const int32_t *hand, int32_t index,
                   int32_t *out) {
    memset(out, 0, KINDS * sizeof(int32_t));
    int32_t locos = hand[LOCO];
    int32_t top = len - 1 < locos ? len - 1 : locos;
    if (colour != LOCO) {
        int32_t lo = colour < 0 ? 0 : colour, hi = colour < 0 ? 7 : colour;
        for (int32_t c = lo; c <= hi; c++) {
            int32_t low = len - hand[c] > minl ? len - hand[c] : minl;
            if (top >= low) {
                if (index <= top - low) {
                    out[c] = len - low - index;
                    out[LOCO] = low + index;
                    return 0;
                }
                index -= top - low + 1;
            }
        }
    }
    if (index == 0 && locos >= len) {
        out[LOCO] = len;
        return 0;
    }
    return -1;
}

/* The one colour of a payment: LOCO if all locomotives, -2 if mixed (payment_colour). */
static int32_t pay_colour(const int32_t *pay) {
    int32_t found = LOCO;
    for (int32_t c = 0; c < LOCO; c++)
        if (pay[c]) {
            if (found != LOCO) return -2;
            found = c;
        }
    return found;
}

static int32_t total9(const int32_t *a) {
    int32_t t = 0;
    for (int k = 0; k < KINDS; k++) t += a[k];
    return t;
}

/* pays(): 0 when the payment pays len cards of colour (-1 gray) with minl locomotives. */
static int pays(const int32_t *pay, int32_t colour, int32_t len, int32_t minl) {
    if (total9(pay) != len) return 1;
    int32_t kind = pay_colour(pay);
    if (kind == -2) return 1;
    if (colour >= 0 && kind != colour && kind != LOCO) return 1;
    if (pay[LOCO] < minl) return 1;
    return 0;
}

static int covers(const int32_t *hand, const int32_t *pay) {
    for (int k = 0; k < KINDS; k++)
        if (hand[k] < pay[k]) return 0;
    return 1;
}

/* ------------------------------------------------------------------ the card table (_table.py) */

static int cards_left(const Game *g) {
    return g->top < g->npile || total9(g->discard) > 0;
}

static int reshuffle(Game *g) {
    if (total9(g->discard) == 0) return 0;
    int32_t n = 0;
    for (int32_t k = 0; k < KINDS; k++)
        for (int32_t i = 0; i < g->discard[k]; i++) g->pile[n++] = k;
    shuffle(&g->rng, g->pile, n);
    g->npile = n;
    g->top = 0;
    memset(g->discard, 0, sizeof g->discard);
    return 1;
}

static int32_t draw(Game *g) {
    if (g->top == g->npile && !reshuffle(g)) return NO_CARD;
    return g->pile[g->top++];
}

static int32_t row_locos(const Game *g) {
    int32_t n = 0;
    for (int32_t s = 0; s < g->nrow; s++) n += g->row[s] == LOCO;
    return n;
}

static int row_has_empty(const Game *g) {
    for (int32_t s = 0; s < g->nrow; s++)
        if (g->row[s] == NO_CARD) return 1;
    return 0;
}

static int reset_can_help(const Game *g) {
    int32_t total = 0, locos = 0;
    for (int32_t s = 0; s < g->nrow; s++)
        if (g->row[s] != NO_CARD) {
            total++;
            locos += g->row[s] == LOCO;
        }
    for (int32_t i = g->top; i < g->npile; i++) {
        total++;
        locos += g->pile[i] == LOCO;
    }
    total += total9(g->discard);
    locos += g->discard[LOCO];
    int32_t shown = g->nrow < total ? g->nrow : total;
    return shown - (total - locos) < g->R->threshold;
}

static void refill(Game *g) {
    if (!row_has_empty(g)) return;
    int placed = 0;
    for (int32_t s = 0; s < g->nrow; s++)
        if (g->row[s] == NO_CARD) {
            int32_t card = draw(g);
            if (card == NO_CARD) break;
            g->row[s] = card;
            placed = 1;
        }
    if (!placed) return;
    int32_t resets = 0, cap = g->R->reset_cap;
    while (row_locos(g) >= g->R->threshold && (cap == 0 || resets < cap)) {
        if (!cards_left(g)) return;
        if (cap == 0 && !reset_can_help(g)) return;
        resets++;
        for (int32_t s = 0; s < g->nrow; s++)
            if (g->row[s] != NO_CARD) g->discard[g->row[s]]++;
        for (int32_t s = 0; s < g->nrow; s++) g->row[s] = draw(g);
    }
}

/* ------------------------------------------------------------------ legal actions (rules.py) */

static int is_closed(const Game *g, int32_t seat, int32_t r) {
    return (int)((g->closed[seat][r >> 6] >> (r & 63)) & 1);
}

static int32_t occupied(const Game *g, int32_t city) {
    for (int32_t q = 0; q < g->R->players; q++)
        for (int32_t i = 0; i < g->p[q].nst; i++)
            if (g->p[q].st[i] == city) return 1;
    return 0;
}

static int32_t total_stations(const Game *g) {
    int32_t n = 0;
    for (int32_t q = 0; q < g->R->players; q++) n += g->p[q].nst;
    return n;
}

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

static void head_act(Legal *L, int32_t kind, int32_t arg) {
    L->head_kind[L->nhead] = kind;
    L->head_arg[L->nhead++] = arg;
}

/* Bits set, portably fast (the builtin is a library call without a popcnt instruction). */
static int32_t pop64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int32_t)((x * 0x0101010101010101ULL) >> 56);
}

/* The index of the lowest set bit of a nonzero word (MSVC has no __builtin_ctzll). */
static int32_t ctz64(uint64_t x) {
#ifdef _MSC_VER
    unsigned long i;
    _BitScanForward64(&i, x);
    return (int32_t)i;
#else
    return __builtin_ctzll(x);
#endif
}

static int32_t popcount_and_not(const uint64_t *m, const uint64_t *closed, int32_t words) {
    int32_t n = 0;
    for (int32_t w = 0; w < words; w++) n += pop64(m[w] & ~closed[w]);
    return n;
}

/* Game.open from Game.closed, after a deal or a load (claimed() keeps it from then on). */
static void count_open(Game *g) {
    const Rules *R = g->R;
    int32_t words = (R->nroutes + 63) / 64;
    for (int32_t q = 0; q < R->players; q++)
        for (int32_t k = 0; k < R->nkinds; k++)
            g->open[q][k] = (uint16_t)popcount_and_not(R->k_mask[k], g->closed[q], words);
}

/* The same after a deal, when nothing is closed: each kind's size. */
static void all_open(Game *g) {
    const Rules *R = g->R;
    for (int32_t q = 0; q < R->players; q++)
        memcpy(g->open[q], R->k_size, sizeof(uint16_t) * (size_t)R->nkinds);
}

/* Places kept by each KeepTickets choice, by size then places (itertools.combinations):
 * the count, and the mask of choice target in *mask_out; with all non-NULL, every mask in
 * order into all (one walk, for listing them all). */
static int64_t keep_walk_all(const Game *g, int64_t target, int32_t *mask_out, int32_t *all);

static int64_t binom(int32_t n, int32_t k) {
    if (k < 0 || k > n) return 0;
    int64_t c = 1;
    for (int32_t i = 1; i <= k; i++) c = c * (n - k + i) / i;
    return c;
}

/* keep_walk_all without the list. When no choice can break the long-ticket limit (none is
 * set, or the offer holds no more long tickets than it allows: always but for special
 * variants) the choices are all combinations, counted and unranked without walking them. */
static int64_t keep_walk(const Game *g, int64_t target, int32_t *mask_out) {
    const Rules *R = g->R;
    const Player *P = &g->p[g->current];
    int32_t n = P->noffer, longs = 0;
    int32_t low = g->phase == PH_INITIAL ? R->keep_initial : R->keep_drawn;
    if (low > n) low = n;
    int32_t limit = g->phase == PH_INITIAL ? R->long_limit : -1;
    for (int32_t i = 0; i < n && limit >= 0; i++) longs += R->t_long[P->offer[i]];
    if (limit >= 0 && longs > limit) return keep_walk_all(g, target, mask_out, NULL);
    int64_t count = 0;
    for (int32_t size = low; size <= n; size++) {
        int64_t here = binom(n, size), rank = target - count;
        if (rank >= 0 && rank < here) { /* the rank-th of itertools.combinations(n, size) */
            int32_t mask = 0;
            for (int32_t i = 0, c = 0; i < size; c++) {
                int64_t with_c = binom(n - c - 1, size - i - 1);
                if (rank < with_c) {
                    mask |= 1 << c;
                    i++;
                } else {
                    rank -= with_c;
                }
            }
            *mask_out = mask;
            return target;
        }
        count += here;
    }
    return count;
}

static int64_t keep_walk_all(const Game *g, int64_t target, int32_t *mask_out, int32_t *all) {
    const Rules *R = g->R;
    const Player *P = &g->p[g->current];
    int32_t n = P->noffer;
    int32_t low = g->phase == PH_INITIAL ? R->keep_initial : R->keep_drawn;
    if (low > n) low = n;
    int32_t limit = g->phase == PH_INITIAL ? R->long_limit : -1;
    int64_t count = 0;
    int32_t idx[MAXOFFER];
    for (int32_t size = low; size <= n; size++) {
        for (int32_t i = 0; i < size; i++) idx[i] = i;
        for (;;) {
            int32_t mask = 0, longs = 0;
            for (int32_t i = 0; i < size; i++) {
                mask |= 1 << idx[i];
                longs += R->t_long[P->offer[idx[i]]];
            }
            if (limit < 0 || longs <= limit) {
                if (count == target) {
                    *mask_out = mask;
                    return count;
                }
                if (all) all[count] = mask;
                count++;
            }
            int32_t i = size - 1;
            while (i >= 0 && idx[i] == i + n - size) i--;
            if (i < 0) break;
            idx[i]++;
            for (int32_t j = i + 1; j < size; j++) idx[j] = idx[j - 1] + 1;
        }
    }
    return count;
}

static void legal(const Game *g, Legal *L) {
    const Rules *R = g->R;
    L->nhead = 0;
    L->claims = 0;
    L->nk = 0;
    L->free_cities = L->station_pays = 0;
    L->keep = 0;
    L->tunnel_pays = 0;
    int pile_left = cards_left(g);
    const Player *P = &g->p[g->current];
    switch (g->phase) {
    case PH_TURN: {
        for (int32_t s = 0; s < g->nrow; s++)
            if (g->row[s] != NO_CARD) head_act(L, A_FACEUP, s);
        if (pile_left) head_act(L, A_BLIND, 0);
        if (g->ndeck) head_act(L, A_TICKETS, 0);
        const int32_t *hand = P->hand;
        int32_t locos = hand[LOCO];
        int32_t most = 0; /* the most cards of one colour: no longer gray route is payable */
        for (int32_t c = 0; c < LOCO; c++)
            if (hand[c] > most) most = hand[c];
        /* Kinds come in runs of one colour by length: a run stops at the first kind too long
         * to take (R22) or to pay (R21), since every later kind of the run is longer. */
        for (int32_t k = 0; k < R->nkinds;) {
            int32_t colour = R->k_col[k], end = R->k_run_end[k];
            int32_t limit = (colour < 0 ? most : hand[colour]) + locos;
            if (limit > P->trains) limit = P->trains;
            for (; k < end && R->k_len[k] <= limit; k++) {
                int32_t len = R->k_len[k], n;
                if (colour >= 0) { /* count_pay of one colour, inline */
                    int32_t top = len - 1 < locos ? len - 1 : locos;
                    int32_t cap = top + 1 - R->k_ferry[k];
                    n = hand[colour] + top + 1 - len;
                    n = (n < cap ? n : cap);
                    n = (n > 0 ? n : 0) + (locos >= len);
                } else {
                    n = count_pay(-1, len, R->k_ferry[k], hand);
                }
                if (!n) continue;
                int32_t nr = g->open[g->current][k];
                if (!nr) continue;
                L->claims += (int64_t)n * nr;
                L->kind[L->nk] = k;
                L->kroutes[L->nk] = nr;
                L->kpays[L->nk] = n;
                L->kend[L->nk++] = L->claims;
            }
            k = end;
        }
        if (P->nst < R->stations) {
            int32_t free = R->ncities - total_stations(g);
            if (free > 0) {
                L->station_pays = count_pay(-1, P->nst + 1, 0, P->hand);
                L->free_cities = L->station_pays ? free : 0;
            }
        }
        if (!L->nhead && !L->nk && !L->station_pays) head_act(L, A_PASS, 0);
        break;
    }
    case PH_SECOND:
        for (int32_t s = 0; s < g->nrow; s++)
            if (g->row[s] != NO_CARD && g->row[s] != LOCO) head_act(L, A_FACEUP, s);
        if (pile_left) head_act(L, A_BLIND, 0);
        if (R->second_optional) head_act(L, A_PASS, 0);
        break;
    case PH_TUNNEL:
        if (g->has_tunnel) L->tunnel_pays = count_pay(g->tun_colour, g->tun_extra, 0, P->hand);
        break;
    case PH_INITIAL:
    case PH_CHOOSE: {
        int32_t unused;
        L->keep = keep_walk(g, -1, &unused);
        break;
    }
    default:
        break;
    }
    L->total = L->nhead + L->claims + (int64_t)L->free_cities * L->station_pays + L->keep +
               (g->phase == PH_TUNNEL ? L->tunnel_pays + 1 : 0);
}

static int32_t nth_route(const uint64_t *mask, const uint64_t *closed, int32_t words, int32_t n) {
    for (int32_t w = 0; w < words; w++) {
        uint64_t m = mask[w] & ~closed[w];
        int32_t c = pop64(m);
        if (n >= c) {
            n -= c;
            continue;
        }
        while (n--) m &= m - 1;
        return w * 64 + ctz64(m);
    }
    return -1;
}

static int nth_action(const Game *g, const Legal *L, int64_t i, Act *out) {
    const Rules *R = g->R;
    const Player *P = &g->p[g->current];
    if (i < 0 || i >= L->total) return -1;
    memset(out, 0, sizeof *out);
    if (g->phase == PH_TUNNEL) {
        if (i < L->tunnel_pays) {
            out->kind = A_PAY;
            return nth_pay(g->tun_colour, g->tun_extra, 0, P->hand, (int32_t)i, out->pay);
        }
        out->kind = A_WITHDRAW;
        return 0;
    }
    if (g->phase == PH_INITIAL || g->phase == PH_CHOOSE) {
        out->kind = A_KEEP;
        keep_walk(g, i, &out->arg);
        return 0;
    }
    if (i < L->nhead) {
        out->kind = L->head_kind[i];
        out->arg = L->head_arg[i];
        return 0;
    }
    i -= L->nhead;
    if (i < L->claims) {
        int32_t j = 0;
        while (L->kend[j] <= i) j++;
        int64_t within = j ? i - L->kend[j - 1] : i;
        int32_t k = L->kind[j], n = L->kpays[j];
        int32_t words = (R->nroutes + 63) / 64;
        out->kind = A_CLAIM;
        out->arg = nth_route(R->k_mask[k], g->closed[g->current], words, (int32_t)(within / n));
        return nth_pay(R->k_col[k], R->k_len[k], R->k_ferry[k], P->hand, (int32_t)(within % n),
                       out->pay);
    }
    i -= L->claims;
    int32_t nth = (int32_t)(i / L->station_pays), pay = (int32_t)(i % L->station_pays);
    for (int32_t c = 0; c < R->ncities; c++)
        if (!occupied(g, c) && nth-- == 0) {
            out->kind = A_STATION;
            out->arg = c;
            return nth_pay(-1, P->nst + 1, 0, P->hand, pay, out->pay);
        }
    return -1;
}

/* ------------------------------------------------------------------ checks (rules._check_*) */

static int check(const Game *g, const Act *a) {
    const Rules *R = g->R;
    if (a->kind < A_FACEUP || a->kind > A_PASS) return E_KIND;
    if (g->phase == PH_OVER) return E_OVER;
    const Player *P = &g->p[g->current];
    int32_t ph = g->phase;
    switch (a->kind) {
    case A_FACEUP: {
        if (ph != PH_TURN && ph != PH_SECOND) return E_PHASE;
        if (a->arg < 0 || a->arg >= g->nrow) return E_SLOT;
        int32_t card = g->row[a->arg];
        if (card == NO_CARD) return E_D3;
        if (card == LOCO && ph == PH_SECOND) return E_R15B;
        return OK;
    }
    case A_BLIND:
        if (ph != PH_TURN && ph != PH_SECOND) return E_PHASE;
        return cards_left(g) ? OK : E_R19;
    case A_CLAIM: {
        if (ph != PH_TURN) return E_PHASE;
        int32_t r = a->arg;
        if (r < 0 || r >= R->nroutes) return E_ROUTE;
        if (a->pay[0] < 0) return E_PAYTYPE;
        if (g->owners[r] != NO_OWNER) return E_R23;
        if (is_closed(g, g->current, r)) {
            int32_t twin = R->r_twin[r];
            int32_t twin_owner = twin >= 0 ? g->owners[twin] : NO_OWNER;
            return twin_owner == g->current ? E_R26A : E_R26B;
        }
        if (P->trains < R->r_len[r]) return E_R22;
        if (pays(a->pay, R->r_col[r], R->r_len[r], R->r_ferry[r]))
            return R->r_ferry[r] && a->pay[LOCO] < R->r_ferry[r] ? E_R27 : E_R21_PAY;
        return covers(P->hand, a->pay) ? OK : E_R21_HOLD;
    }
    case A_PAY: {
        if (ph != PH_TUNNEL || !g->has_tunnel) return E_PHASE;
        if (a->pay[0] < 0) return E_PAYTYPE;
        if (total9(a->pay) != g->tun_extra) return E_R28_COUNT;
        int32_t kind = pay_colour(a->pay);
        if (g->tun_colour == LOCO && kind != LOCO) return E_R30;
        if (kind == -2 || (kind != g->tun_colour && kind != LOCO)) return E_R29;
        return covers(P->hand, a->pay) ? OK : E_R28_HOLD;
    }
    case A_WITHDRAW:
        return ph == PH_TUNNEL ? OK : E_PHASE;
    case A_STATION: {
        if (!R->stations) return E_NO_STATIONS;
        if (ph != PH_TURN) return E_PHASE;
        if (a->arg < 0 || a->arg >= R->ncities) return E_CITY;
        if (a->pay[0] < 0) return E_PAYTYPE;
        if (P->nst >= R->stations) return E_R40_ALL;
        if (occupied(g, a->arg)) return E_R40_CITY;
        if (pays(a->pay, -1, P->nst + 1, 0)) return E_R41_PAY;
        return covers(P->hand, a->pay) ? OK : E_R41_HOLD;
    }
    case A_TICKETS:
        if (ph != PH_TURN) return E_PHASE;
        return g->ndeck ? OK : E_D11;
    case A_KEEP: {
        if (ph != PH_INITIAL && ph != PH_CHOOSE) return E_PHASE;
        if (a->arg < 0 || a->arg >= (1 << P->noffer)) return E_TICKET;
        int32_t n = P->noffer, kept = 0, longs = 0;
        int32_t low = ph == PH_INITIAL ? R->keep_initial : R->keep_drawn;
        if (low > n) low = n;
        for (int32_t i = 0; i < n; i++)
            if (a->arg >> i & 1) {
                kept++;
                longs += R->t_long[P->offer[i]];
            }
        if (kept < low) return ph == PH_INITIAL ? E_R9_FEW : E_R37_FEW;
        if (ph == PH_INITIAL && R->long_limit >= 0 && longs > R->long_limit) return E_B4;
        return OK;
    }
    case A_PASS: {
        if (ph == PH_SECOND && R->second_optional) return OK;
        if (ph != PH_TURN) return E_PHASE;
        Legal L;
        legal(g, &L);
        return L.nhead == 1 && L.head_kind[0] == A_PASS && L.total == 1 ? OK : E_D1;
    }
    }
    return E_KIND;
}

/* ------------------------------------------------------------------ the reducer (rules.apply) */

static void end_turn(Game *g, int refill_row, int passed) {
    if (refill_row && row_has_empty(g)) refill(g);
    int32_t n = g->R->players;
    if (g->final_turns > 0)
        g->final_turns--;
    else if (g->final_turns < 0 && g->p[g->current].trains <= END_TRIGGER_TRAINS)
        g->final_turns = n;
    g->passes = passed ? g->passes + 1 : 0;
    int over = g->final_turns == 0 || g->passes >= n;
    g->phase = over ? PH_OVER : PH_TURN;
    if (!over) g->current = (g->current + 1) % n;
    g->has_tunnel = 0;
}

static int second_card_exists(const Game *g) {
    if (cards_left(g)) return 1;
    for (int32_t s = 0; s < g->nrow; s++)
        if (g->row[s] != NO_CARD && g->row[s] != LOCO) return 1;
    return 0;
}

static void after_card(Game *g, int32_t card, int took_loco, int refill_row) {
    g->p[g->current].hand[card]++;
    if (g->phase == PH_TURN && !took_loco && second_card_exists(g)) {
        g->phase = PH_SECOND;
        g->passes = 0;
        return;
    }
    end_turn(g, refill_row, 0);
}

/* Closes route r to seat q, keeping q's open count of its kind. */
static void close_route(Game *g, int32_t q, int32_t r) {
    uint64_t bit = 1ULL << (r & 63);
    if (g->closed[q][r >> 6] & bit) return;
    g->closed[q][r >> 6] |= bit;
    if (g->R->r_kind[r] >= 0) g->open[q][g->R->r_kind[r]]--;
}

static void claimed(Game *g, int32_t r) {
    const Rules *R = g->R;
    int32_t seat = g->current, twin = R->r_twin[r];
    g->owners[r] = seat;
    for (int32_t q = 0; q < R->players; q++) {
        close_route(g, q, r);
        if (twin >= 0 && (!R->doubles_open || q == seat)) close_route(g, q, twin);
    }
}

static void finish_claim(Game *g, int32_t r) {
    Player *P = &g->p[g->current];
    P->trains -= g->R->r_len[r];
    P->score += g->R->r_points[r];
    claimed(g, r);
    end_turn(g, 1, 0);
}

static void add9(int32_t *a, const int32_t *b, int sign) {
    for (int k = 0; k < KINDS; k++) a[k] += sign * b[k];
}

static void throw_revealed(Game *g) {
    for (int32_t i = 0; i < g->tun_nrev; i++)
        if (g->tun_rev[i] != NO_CARD) g->discard[g->tun_rev[i]]++;
}

/* PublicHands.after: face-up cards taken become known, payments spend known cards first,
 * a withdrawn tunnel's cards come back known. */
static void remember(Game *g, const Act *a) {
    int32_t *known = g->known[g->current];
    if (a->kind == A_FACEUP) {
        if (g->row[a->arg] != NO_CARD) known[g->row[a->arg]]++;
    } else if (a->kind == A_CLAIM || a->kind == A_PAY || a->kind == A_STATION) {
        for (int k = 0; k < KINDS; k++) known[k] = known[k] > a->pay[k] ? known[k] - a->pay[k] : 0;
    } else if (a->kind == A_WITHDRAW && g->has_tunnel) {
        add9(known, g->tun_laid, 1);
    }
}

static void step(Game *g, const Act *a) {
    const Rules *R = g->R;
    Player *P = &g->p[g->current];
    remember(g, a);
    switch (a->kind) {
    case A_FACEUP: {
        int32_t card = g->row[a->arg];
        g->row[a->arg] = NO_CARD;
        refill(g);
        after_card(g, card, card == LOCO && g->phase == PH_TURN, 1);
        break;
    }
    case A_BLIND:
        if (g->top < g->npile) /* no table in the reference: no refill at the turn's end */
            after_card(g, g->pile[g->top++], 0, 0);
        else
            after_card(g, draw(g), 0, 1);
        break;
    case A_CLAIM: {
        int32_t r = a->arg;
        add9(P->hand, a->pay, -1);
        if (!R->r_tunnel[r]) {
            add9(g->discard, a->pay, 1);
            finish_claim(g, r);
            break;
        }
        g->tun_nrev = 0;
        for (int i = 0; i < REVEAL; i++) {
            int32_t card = draw(g);
            if (card == NO_CARD) break;
            g->tun_rev[g->tun_nrev++] = card;
        }
        int32_t colour = pay_colour(a->pay), extra = 0;
        for (int32_t i = 0; i < g->tun_nrev; i++)
            extra += g->tun_rev[i] == LOCO || g->tun_rev[i] == colour;
        if (!extra) {
            add9(g->discard, a->pay, 1);
            throw_revealed(g);
            g->tun_nrev = 0;
            finish_claim(g, r);
            break;
        }
        g->has_tunnel = 1;
        g->tun_route = r;
        memcpy(g->tun_laid, a->pay, sizeof g->tun_laid);
        g->tun_colour = colour;
        g->tun_extra = extra;
        g->phase = PH_TUNNEL;
        g->passes = 0;
        break;
    }
    case A_PAY:
        add9(g->discard, g->tun_laid, 1);
        add9(g->discard, a->pay, 1);
        throw_revealed(g);
        add9(P->hand, a->pay, -1);
        g->has_tunnel = 0;
        finish_claim(g, g->tun_route);
        break;
    case A_WITHDRAW:
        throw_revealed(g);
        add9(P->hand, g->tun_laid, 1);
        end_turn(g, 1, 0);
        break;
    case A_STATION:
        add9(g->discard, a->pay, 1);
        add9(P->hand, a->pay, -1);
        P->st[P->nst++] = a->arg;
        end_turn(g, 1, 0);
        break;
    case A_TICKETS: {
        int32_t k = R->draw_tickets < g->ndeck ? R->draw_tickets : g->ndeck;
        if (k > MAXOFFER) k = MAXOFFER; /* load refuses variants that draw more */
        memcpy(P->offer, g->deck, (size_t)k * sizeof(int32_t));
        P->noffer = k;
        memmove(g->deck, g->deck + k, (size_t)(g->ndeck - k) * sizeof(int32_t));
        g->ndeck -= k;
        g->phase = PH_CHOOSE;
        g->passes = 0;
        break;
    }
    case A_KEEP: {
        int32_t rejected[MAXOFFER], nrej = 0;
        for (int32_t i = 0; i < P->noffer; i++) {
            if (a->arg >> i & 1)
                P->tk[P->ntk++] = P->offer[i];
            else
                rejected[nrej++] = P->offer[i];
        }
        P->noffer = 0;
        if (g->phase == PH_CHOOSE) {
            for (int32_t i = 0; i < nrej; i++) g->deck[g->ndeck++] = rejected[i];
            end_turn(g, 0, 0);
            break;
        }
        for (int32_t i = 0; i < nrej; i++) {
            if (R->rejects_box)
                g->box[g->nbox++] = rejected[i];
            else
                g->deck[g->ndeck++] = rejected[i];
        }
        g->current = (g->current + 1) % R->players;
        g->phase = g->current == g->first ? PH_TURN : PH_INITIAL;
        break;
    }
    case A_PASS:
        end_turn(g, 0, g->phase == PH_TURN);
        break;
    }
}

/* ------------------------------------------------------------------ the exported functions */

#ifndef FG_SOURCE_HASH
#define FG_SOURCE_HASH 0 /* build.py passes the hash of this file: a stale build is refused */
#endif

FG_API uint64_t fg_source_hash(void) { return FG_SOURCE_HASH; }

#define NEED(cond)                                                                             \
    do {                                                                                       \
        if (!(cond)) return -1;                                                                \
    } while (0)

/* Rules from the flat layout written by fast/__init__.py (_rules_array); NULL if a limit is
 * exceeded or a value is out of range. */
FG_API Rules *fg_rules_new(const int64_t *v, int64_t n) {
    Rules *R = calloc(1, sizeof(Rules));
    if (!R) return NULL;
    int64_t i = 0;
#define NEXT(dst, lo, hi)                                                                      \
    do {                                                                                       \
        if (i >= n || v[i] < (lo) || v[i] > (hi)) goto bad;                                    \
        (dst) = (int32_t)v[i++];                                                               \
    } while (0)
    NEXT(R->players, 1, MAXP);
    NEXT(R->nroutes, 0, MAXR);
    NEXT(R->ncities, 0, MAXC);
    NEXT(R->ntickets, 0, MAXT);
    NEXT(R->trains, 0, BIG);
    NEXT(R->stations, 0, MAXST);
    NEXT(R->hand, 0, 110);
    NEXT(R->face_up, 0, MAXROW);
    NEXT(R->threshold, 0, MAXROW + 1);
    NEXT(R->reset_cap, 0, BIG);
    NEXT(R->second_optional, 0, 1);
    NEXT(R->deal_long, 0, MAXOFFER);
    NEXT(R->deal_regular, 0, MAXOFFER);
    NEXT(R->keep_initial, 0, MAXOFFER);
    NEXT(R->long_limit, -1, BIG);
    NEXT(R->rejects_box, 0, 1);
    NEXT(R->draw_tickets, 0, MAXOFFER);
    NEXT(R->keep_drawn, 0, MAXOFFER);
    NEXT(R->doubles_open, 0, 1);
    if (R->deal_long + R->deal_regular > MAXOFFER) goto bad;
    NEXT(R->nlong, 0, MAXT);
    for (int32_t k = 0; k < R->nlong; k++) NEXT(R->long_pool[k], 0, R->ntickets - 1);
    NEXT(R->nreg, 0, MAXT);
    for (int32_t k = 0; k < R->nreg; k++) NEXT(R->reg_pool[k], 0, R->ntickets - 1);
    for (int32_t r = 0; r < R->nroutes; r++) {
        NEXT(R->r_a[r], 0, R->ncities - 1);
        NEXT(R->r_b[r], 0, R->ncities - 1);
        NEXT(R->r_len[r], 1, 64);
        NEXT(R->r_col[r], -1, 7);
        NEXT(R->r_tunnel[r], 0, 1);
        NEXT(R->r_ferry[r], 0, 64);
        NEXT(R->r_twin[r], -1, R->nroutes - 1);
        NEXT(R->r_points[r], -BIG, BIG);
    }
    for (int32_t c = 0, at = 0; c < R->ncities; c++) {
        R->adj_start[c] = at;
        for (int32_t r = 0; r < R->nroutes; r++) {
            if (R->r_a[r] == c) {
                R->adj_route[at] = r;
                R->adj_other[at++] = R->r_b[r];
            }
            if (R->r_b[r] == c) {
                R->adj_route[at] = r;
                R->adj_other[at++] = R->r_a[r];
            }
        }
        R->adj_start[c + 1] = at;
    }
    for (int32_t t = 0; t < R->ntickets; t++) NEXT(R->t_long[t], 0, 1);
    NEXT(R->nkinds, 0, MAXR);
    for (int32_t k = 0; k < R->nkinds; k++) {
        NEXT(R->k_col[k], -1, 7);
        NEXT(R->k_len[k], 1, 64);
        NEXT(R->k_ferry[k], 0, 64);
        for (int32_t r = 0; r < R->nroutes; r++)
            if (R->r_col[r] == R->k_col[k] && R->r_len[r] == R->k_len[k] &&
                R->r_ferry[r] == R->k_ferry[k])
                R->k_mask[k][r >> 6] |= 1ULL << (r & 63);
    }
    for (int32_t r = 0; r < R->nroutes; r++) {
        R->r_kind[r] = -1;
        for (int32_t k = 0; k < R->nkinds; k++)
            if (R->k_mask[k][r >> 6] >> (r & 63) & 1) {
                if (R->r_kind[r] >= 0) goto bad; /* kinds are distinct */
                R->r_kind[r] = k;
                R->k_size[k]++;
            }
    }
    for (int32_t k = R->nkinds - 1; k >= 0; k--) /* legal() relies on these runs */
        R->k_run_end[k] = k + 1 < R->nkinds && R->k_col[k + 1] == R->k_col[k] &&
                                  R->k_len[k + 1] >= R->k_len[k]
                              ? R->k_run_end[k + 1]
                              : k + 1;
    for (int32_t t = 0; t < R->ntickets; t++) {
        NEXT(R->t_a[t], 0, R->ncities - 1);
        NEXT(R->t_b[t], 0, R->ncities - 1);
        NEXT(R->t_points[t], -BIG, BIG);
    }
    NEXT(R->station_points, -BIG, BIG);
    NEXT(R->bonus_points, -BIG, BIG);
    NEXT(R->bonus_at_zero, 0, 1);
    NEXT(R->ntiebreaks, 0, 8);
    for (int32_t k = 0; k < R->ntiebreaks; k++) NEXT(R->tiebreaks[k], TB_COMPLETED, TB_PATH);
    if (i != n) goto bad;
    return R;
bad:
    free(R);
    return NULL;
#undef NEXT
}

FG_API void fg_rules_free(Rules *R) { free(R); }

FG_API Game *fg_new(const Rules *R) {
    Game *g = calloc(1, sizeof(Game));
    if (g) g->R = R;
    return g;
}

FG_API void fg_free(Game *g) { free(g); }

FG_API void fg_copy(Game *dst, const Game *src) { memcpy(dst, src, sizeof(Game)); }

/* new_game after its argument checks: deal (R5-R10); first < 0 draws the first player.
 * Returns 0; 1 when the variant has too few tickets for the players, 2 too few cards. */
FG_API int fg_setup(Game *g, uint64_t seed, int32_t first) {
    const Rules *R = g->R;
    memset((char *)g + sizeof(g->R), 0, sizeof(Game) - sizeof(g->R));
    g->rng = seed;
    int32_t n = 0;
    for (int32_t k = 0; k < KINDS; k++)
        for (int32_t c = 0; c < (k == LOCO ? 14 : 12); c++) g->pile[n++] = k;
    shuffle(&g->rng, g->pile, n);
    g->npile = n;
    if (R->players * R->hand > n) return 2;
    for (int32_t q = 0; q < R->players; q++) {
        Player *P = &g->p[q];
        for (int32_t i = 0; i < R->hand; i++) P->hand[g->pile[q * R->hand + i]]++;
        P->trains = R->trains;
    }
    g->top = R->players * R->hand;
    g->nrow = R->face_up;
    for (int32_t s = 0; s < g->nrow; s++) g->row[s] = NO_CARD;
    refill(g);
    int32_t longs[MAXT], regs[MAXT];
    memcpy(longs, R->long_pool, sizeof longs);
    memcpy(regs, R->reg_pool, sizeof regs);
    shuffle(&g->rng, longs, R->nlong);
    shuffle(&g->rng, regs, R->nreg);
    int32_t dl = R->deal_long, dr = R->deal_regular;
    if (R->nlong < dl * R->players || R->nreg < dr * R->players) return 1;
    for (int32_t q = 0; q < R->players; q++) {
        Player *P = &g->p[q];
        for (int32_t i = 0; i < dl; i++) P->offer[P->noffer++] = longs[q * dl + i];
        for (int32_t i = 0; i < dr; i++) P->offer[P->noffer++] = regs[q * dr + i];
    }
    for (int32_t i = dr * R->players; i < R->nreg; i++) g->deck[g->ndeck++] = regs[i];
    for (int32_t i = dl * R->players; i < R->nlong; i++) g->box[g->nbox++] = longs[i];
    if (first < 0) first = (int32_t)below(&g->rng, (uint64_t)R->players);
    g->first = g->current = first;
    g->phase = PH_INITIAL;
    for (int32_t r = 0; r < R->nroutes; r++) g->owners[r] = NO_OWNER;
    g->final_turns = -1;
    all_open(g);
    return 0;
}

/* The position layout shared with fast/__init__.py (_dump_layout documents it). */
FG_API int64_t fg_dump(const Game *g, int64_t *out, int64_t cap) {
    const Rules *R = g->R;
    int64_t i = 0;
#define PUT(x)                                                                                 \
    do {                                                                                       \
        if (i < cap) out[i] = (int64_t)(x);                                                    \
        i++;                                                                                   \
    } while (0)
    PUT(g->phase);
    PUT(g->current);
    PUT(g->first);
    PUT((int64_t)g->rng);
    PUT(g->final_turns);
    PUT(g->passes);
    PUT(g->nrow);
    for (int32_t s = 0; s < g->nrow; s++) PUT(g->row[s]);
    for (int k = 0; k < KINDS; k++) PUT(g->discard[k]);
    PUT(g->npile - g->top);
    for (int32_t j = g->top; j < g->npile; j++) PUT(g->pile[j]);
    PUT(g->ndeck);
    for (int32_t j = 0; j < g->ndeck; j++) PUT(g->deck[j]);
    PUT(g->nbox);
    for (int32_t j = 0; j < g->nbox; j++) PUT(g->box[j]);
    for (int32_t r = 0; r < R->nroutes; r++) PUT(g->owners[r]);
    for (int32_t q = 0; q < R->players; q++)
        for (int w = 0; w < MAXW; w++) PUT((int64_t)g->closed[q][w]);
    for (int32_t q = 0; q < R->players; q++) {
        const Player *P = &g->p[q];
        for (int k = 0; k < KINDS; k++) PUT(P->hand[k]);
        PUT(P->trains);
        PUT(P->score);
        PUT(P->nst);
        for (int32_t j = 0; j < P->nst; j++) PUT(P->st[j]);
        PUT(P->ntk);
        for (int32_t j = 0; j < P->ntk; j++) PUT(P->tk[j]);
        PUT(P->noffer);
        for (int32_t j = 0; j < P->noffer; j++) PUT(P->offer[j]);
    }
    PUT(g->has_tunnel);
    if (g->has_tunnel) {
        PUT(g->tun_route);
        for (int k = 0; k < KINDS; k++) PUT(g->tun_laid[k]);
        PUT(g->tun_nrev);
        for (int32_t j = 0; j < g->tun_nrev; j++) PUT(g->tun_rev[j]);
        PUT(g->tun_colour);
        PUT(g->tun_extra);
    }
    return i;
#undef PUT
}

/* The inverse of fg_dump, checking every value: 0, or -1 (the game is then left unusable). */
FG_API int fg_load(Game *g, const int64_t *v, int64_t n) {
    const Rules *R = g->R;
    memset((char *)g + sizeof(g->R), 0, sizeof(Game) - sizeof(g->R));
    int64_t i = 0;
    int64_t cards = 0, tickets = 0;
#define GET(dst, lo, hi)                                                                       \
    do {                                                                                       \
        NEED(i < n && v[i] >= (lo) && v[i] <= (hi));                                           \
        (dst) = (int32_t)v[i++];                                                               \
    } while (0)
    GET(g->phase, PH_INITIAL, PH_OVER);
    GET(g->current, 0, R->players - 1);
    GET(g->first, 0, R->players - 1);
    NEED(i < n);
    g->rng = (uint64_t)v[i++];
    GET(g->final_turns, -1, BIG);
    GET(g->passes, 0, BIG);
    GET(g->nrow, 0, MAXROW);
    for (int32_t s = 0; s < g->nrow; s++) {
        GET(g->row[s], NO_CARD, LOCO);
        cards += g->row[s] != NO_CARD;
    }
    for (int k = 0; k < KINDS; k++) {
        GET(g->discard[k], 0, MAXPILE);
        cards += g->discard[k];
    }
    GET(g->npile, 0, MAXPILE);
    for (int32_t j = 0; j < g->npile; j++) GET(g->pile[j], 0, LOCO);
    cards += g->npile;
    GET(g->ndeck, 0, MAXT);
    for (int32_t j = 0; j < g->ndeck; j++) GET(g->deck[j], 0, R->ntickets - 1);
    GET(g->nbox, 0, MAXT);
    for (int32_t j = 0; j < g->nbox; j++) GET(g->box[j], 0, R->ntickets - 1);
    tickets += g->ndeck + g->nbox;
    for (int32_t r = 0; r < R->nroutes; r++) GET(g->owners[r], NO_OWNER, R->players - 1);
    for (int32_t q = 0; q < R->players; q++)
        for (int w = 0; w < MAXW; w++) {
            NEED(i < n);
            g->closed[q][w] = (uint64_t)v[i++];
        }
    for (int32_t q = 0; q < R->players; q++) {
        Player *P = &g->p[q];
        for (int k = 0; k < KINDS; k++) {
            GET(P->hand[k], 0, MAXPILE);
            cards += P->hand[k];
        }
        GET(P->trains, -BIG, BIG);
        GET(P->score, -BIG, BIG);
        GET(P->nst, 0, R->stations);
        for (int32_t j = 0; j < P->nst; j++) GET(P->st[j], 0, R->ncities - 1);
        GET(P->ntk, 0, MAXT);
        for (int32_t j = 0; j < P->ntk; j++) GET(P->tk[j], 0, R->ntickets - 1);
        GET(P->noffer, 0, MAXOFFER);
        for (int32_t j = 0; j < P->noffer; j++) GET(P->offer[j], 0, R->ntickets - 1);
        tickets += P->ntk + P->noffer;
    }
    GET(g->has_tunnel, 0, 1);
    if (g->has_tunnel) {
        GET(g->tun_route, 0, R->nroutes - 1);
        for (int k = 0; k < KINDS; k++) {
            GET(g->tun_laid[k], 0, MAXPILE);
            cards += g->tun_laid[k];
        }
        GET(g->tun_nrev, 0, REVEAL);
        for (int32_t j = 0; j < g->tun_nrev; j++) {
            GET(g->tun_rev[j], NO_CARD, LOCO);
            cards += g->tun_rev[j] != NO_CARD;
        }
        GET(g->tun_colour, 0, LOCO);
        GET(g->tun_extra, 0, BIG);
    }
    NEED(i == n);
    NEED(cards <= MAXPILE && tickets <= MAXT); /* both are conserved by every move */
    NEED((g->phase == PH_TUNNEL) == (g->has_tunnel == 1));
    count_open(g);
    return 0;
#undef GET
}

FG_API int64_t fg_legal_count(const Game *g) {
    Legal L;
    legal(g, &L);
    return L.total;
}

/* Writes legal actions first..first+cap-1 (in the reference's order); returns how many. */
FG_API int64_t fg_legal(const Game *g, int64_t first, Act *out, int64_t cap) {
    Legal L;
    legal(g, &L);
    int64_t k = 0;
    if (g->phase == PH_INITIAL || g->phase == PH_CHOOSE) { /* one walk, not one per choice */
        int32_t *all = malloc(sizeof(int32_t) * (size_t)(L.total ? L.total : 1));
        if (!all) return -1;
        int32_t unused;
        keep_walk_all(g, -1, &unused, all);
        for (int64_t i = first; i < L.total && k < cap; i++, k++) {
            memset(&out[k], 0, sizeof(Act));
            out[k].kind = A_KEEP;
            out[k].arg = all[i];
        }
        free(all);
        return k;
    }
    for (int64_t i = first; i < L.total && k < cap; i++, k++)
        if (nth_action(g, &L, i, &out[k])) return -1;
    return k;
}

/* Checks the action and applies it: 0, or an error code with the game untouched. */
FG_API int fg_apply(Game *g, const Act *a) {
    int code = check(g, a);
    if (code == OK) step(g, a);
    return code;
}

FG_API int32_t fg_phase(const Game *g) { return g->phase; }

FG_API int32_t fg_current(const Game *g) { return g->current; }

FG_API int32_t fg_offer(const Game *g, int32_t *out) {
    const Player *P = &g->p[g->current];
    memcpy(out, P->offer, (size_t)P->noffer * sizeof(int32_t));
    return P->noffer;
}

/* Uniformly random legal play to the end (or max_steps), the policy's choices drawn from its
 * own SplitMix64 stream seeded with seed: the same index the reference's
 * legal_actions(state)[below(...)] picks. Returns the number of actions applied. */
FG_API int64_t fg_playout(Game *g, uint64_t seed, int64_t max_steps) {
    int64_t steps = 0;
    Legal L;
    Act a;
    while (g->phase != PH_OVER && steps < max_steps) {
        legal(g, &L);
        if (!L.total) break;
        if (nth_action(g, &L, (int64_t)below(&seed, (uint64_t)L.total), &a)) break;
        step(g, &a);
        steps++;
    }
    return steps;
}

/* ------------------------------------------------------------------ final scoring (scoring.py) */

enum { SC_ROUTES, SC_TICKETS, SC_COMPLETED, SC_STATIONS, SC_PATH, SC_BONUS, SC_TOTAL, SC_RANK,
       SC_FIELDS };

static int32_t uf_find(int32_t *parent, int32_t x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* A seat's routes, found in one pass over the owners for every seat: their points, the cities'
 * degrees and a union-find of the cities they join (scoring reads it three times). */
typedef struct {
    int32_t n, points, mine[MAXR], parent[MAXC], degree[MAXC];
} Network;

static void networks(const Game *g, Network *N) {
    const Rules *R = g->R;
    for (int32_t q = 0; q < R->players; q++) {
        N[q].n = N[q].points = 0;
        for (int32_t c = 0; c < R->ncities; c++) {
            N[q].parent[c] = c;
            N[q].degree[c] = 0;
        }
    }
    for (int32_t r = 0; r < R->nroutes; r++) {
        int32_t q = g->owners[r];
        if (q == NO_OWNER) continue;
        Network *M = &N[q];
        M->mine[M->n++] = r;
        M->points += R->r_points[r];
        M->degree[R->r_a[r]]++;
        M->degree[R->r_b[r]]++;
        int32_t x = uf_find(M->parent, R->r_a[r]), y = uf_find(M->parent, R->r_b[r]);
        if (x != y) M->parent[x] = y;
    }
}

#define TRAIL_BUDGET 20000 /* search steps per seat before scoring asks paths.py instead */

typedef struct {
    int32_t start[MAXC + 1], edge[2 * MAXR], other[2 * MAXR], len[MAXR];
    uint8_t used[MAXR];
    int32_t best, bound, left, steps; /* left: weight of the component not yet on the trail */
} Trails;

/* Depth-first over trails from one end, cut when even every route left could not beat the
 * best; 1 when the search is settled (the bound reached), -1 past the budget. */
static int trail_from(Trails *T, int32_t city, int32_t length) {
    if (length > T->best) {
        T->best = length;
        if (length >= T->bound) return 1;
    }
    if (length + T->left <= T->best) return 0;
    if (++T->steps > TRAIL_BUDGET) return -1;
    for (int32_t j = T->start[city]; j < T->start[city + 1]; j++) {
        int32_t e = T->edge[j];
        if (T->used[e]) continue;
        T->used[e] = 1;
        T->left -= T->len[e];
        int done = trail_from(T, T->other[j], length + T->len[e]);
        T->left += T->len[e];
        T->used[e] = 0;
        if (done) return done;
    }
    return 0;
}

/* The exact longest trail of a seat's routes (R48: each route once, cities may repeat), or -1
 * when the search would take too long (the caller then asks paths.longest_trail).
 *
 * A longest trail cannot be extended, so it ends at cities of odd degree, or covers its whole
 * component: a component with at most two odd cities gives its whole weight (an Euler trail).
 * Otherwise trails are searched from its odd cities, cut by the weight left, and stopped at
 * the bound that every odd city but two loses at least half its lightest route. */
static int32_t longest_trail(const Game *g, Network *N) {
    const Rules *R = g->R;
    Trails T;
    int32_t nc = R->ncities, n = N->n, *parent = N->parent;
    const int32_t *degree = N->degree, *mine = N->mine;
    int32_t weight[MAXC], odd[MAXC], comp[MAXC];
    if (!n) return 0;
    /* The seat's cities in order, each with its component's root; the odd ones apart. */
    int32_t cities[MAXC], nct = 0, odds[MAXC], nodd = 0, roots[MAXC], nroots = 0;
    T.start[0] = 0;
    for (int32_t c = 0; c < nc; c++) weight[c] = odd[c] = 0;
    for (int32_t c = 0; c < nc; c++) {
        T.start[c + 1] = T.start[c] + degree[c];
        if (!degree[c]) continue;
        cities[nct++] = c;
        comp[c] = uf_find(parent, c);
        if (degree[c] & 1) {
            odds[nodd++] = c;
            odd[comp[c]]++;
        }
        if (comp[c] == c) roots[nroots++] = c;
    }
    int32_t fill[MAXC];
    for (int32_t i = 0; i < nct; i++) fill[cities[i]] = T.start[cities[i]];
    for (int32_t e = 0; e < n; e++) {
        int32_t r = mine[e], a = R->r_a[r], b = R->r_b[r];
        T.len[e] = R->r_len[r];
        T.used[e] = 0;
        T.edge[fill[a]] = e;
        T.other[fill[a]++] = b;
        T.edge[fill[b]] = e;
        T.other[fill[b]++] = a;
        weight[comp[a]] += R->r_len[r];
    }
    /* Components, heaviest first (the lowest city first among equals): a trail is no longer
     * than its component. */
    for (int32_t i = 1; i < nroots; i++) {
        int32_t k = roots[i], j = i;
        for (; j > 0 && weight[roots[j - 1]] < weight[k]; j--) roots[j] = roots[j - 1];
        roots[j] = k;
    }
    T.best = 0;
    T.steps = 0;
    for (int32_t ci = 0; ci < nroots; ci++) {
        int32_t k = roots[ci];
        if (weight[k] <= T.best) return T.best;
        int32_t total = weight[k];
        if (odd[k] <= 2) {
            T.best = total;
            continue;
        }
        int32_t light[MAXC], nl = 0; /* the lightest route at each odd city, ascending */
        for (int32_t i = 0; i < nodd; i++) {
            int32_t c = odds[i];
            if (comp[c] != k) continue;
            int32_t lo = -1;
            for (int32_t j = T.start[c]; j < T.start[c + 1]; j++)
                if (lo < 0 || T.len[T.edge[j]] < lo) lo = T.len[T.edge[j]];
            int32_t at = nl++;
            while (at > 0 && light[at - 1] > lo) {
                light[at] = light[at - 1];
                at--;
            }
            light[at] = lo;
        }
        int32_t cut = 0;
        for (int32_t i = 0; i < nl - 2; i++) cut += light[i];
        T.bound = total - (cut + 1) / 2;
        T.left = total;
        for (int32_t i = 0; i < nodd; i++) {
            if (comp[odds[i]] != k) continue;
            int done = trail_from(&T, odds[i], 0);
            if (done < 0) return -1;
            if (done) break;
        }
    }
    return T.best;
}

/* Tickets with the stations' best borrowing (R39, R43, D10): the highest ticket total, then
 * the most completed, over every choice of an opponent's route (or none) per station. */
static void tickets_with_stations(const Game *g, int32_t seat, Network *N, int32_t *points,
                                  int32_t *done) {
    const Rules *R = g->R;
    const Player *P = &g->p[seat];
    int32_t *parent = N->parent;
    /* Per station: the networks it may join to its own (distinct, other than its own). */
    int32_t nopt[MAXST], home[MAXST], far[MAXST][MAXR];
    for (int32_t s = 0; s < P->nst; s++) {
        int32_t city = P->st[s];
        home[s] = uf_find(parent, city);
        nopt[s] = 0;
        for (int32_t r = 0; r < R->nroutes; r++) {
            int32_t owner = g->owners[r];
            if (owner == NO_OWNER || owner == seat) continue;
            int32_t other;
            if (R->r_a[r] == city)
                other = R->r_b[r];
            else if (R->r_b[r] == city)
                other = R->r_a[r];
            else
                continue;
            int32_t c = uf_find(parent, other), seen = c == home[s];
            for (int32_t j = 0; j < nopt[s] && !seen; j++) seen = far[s][j] == c;
            if (!seen) far[s][nopt[s]++] = c;
        }
    }
    int32_t best_points = 0, best_done = -1;
    int32_t pick[MAXST] = {0}; /* 0: nothing; j > 0: far[s][j - 1] */
    for (;;) {
        /* A small union-find over the networks the picked links join. */
        int32_t nodes[2 * MAXST], up[2 * MAXST], nn = 0;
        for (int32_t s = 0; s < P->nst; s++) {
            if (!pick[s]) continue;
            int32_t ends[2] = {home[s], far[s][pick[s] - 1]}, ix[2];
            for (int e = 0; e < 2; e++) {
                int32_t j = 0;
                while (j < nn && nodes[j] != ends[e]) j++;
                if (j == nn) {
                    nodes[nn] = ends[e];
                    up[nn] = nn;
                    nn++;
                }
                ix[e] = uf_find(up, j);
            }
            if (ix[0] != ix[1]) up[ix[0]] = ix[1];
        }
        int32_t pts = 0, count = 0;
        for (int32_t i = 0; i < P->ntk; i++) {
            int32_t t = P->tk[i];
            int32_t x = uf_find(parent, R->t_a[t]), y = uf_find(parent, R->t_b[t]);
            if (x != y && nn) {
                int32_t jx = 0, jy = 0;
                while (jx < nn && nodes[jx] != x) jx++;
                while (jy < nn && nodes[jy] != y) jy++;
                if (jx < nn && jy < nn && uf_find(up, jx) == uf_find(up, jy)) x = y;
            }
            if (x == y) {
                pts += R->t_points[t];
                count++;
            } else {
                pts -= R->t_points[t];
            }
        }
        if (best_done < 0 || pts > best_points || (pts == best_points && count > best_done)) {
            best_points = pts;
            best_done = count;
        }
        int32_t s = 0;
        while (s < P->nst && pick[s] == nopt[s]) pick[s++] = 0;
        if (s == P->nst) break;
        pick[s]++;
    }
    *points = best_points;
    *done = best_done;
}

/* Every seat's figures (SC_* per seat) as scoring.score computes them; paths[q] >= 0 gives a
 * seat's longest trail instead of searching it (paths may be NULL). Returns 0; seat + 1 when a
 * running score disagrees with the routes owned (D35), out[0] then holding the recomputed
 * route points; -1 when a seat's longest trail is left to the caller (SC_PATH < 0). */
FG_API int fg_score(const Game *g, const int32_t *paths, int32_t *out) {
    const Rules *R = g->R;
    int32_t n = R->players, longest = 0, unknown = 0;
    Network N[MAXP];
    networks(g, N);
    for (int32_t q = 0; q < n; q++) {
        int32_t *o = out + q * SC_FIELDS, points = N[q].points;
        if (points != g->p[q].score) {
            out[0] = points;
            return q + 1;
        }
        o[SC_ROUTES] = points;
        tickets_with_stations(g, q, &N[q], &o[SC_TICKETS], &o[SC_COMPLETED]);
        int32_t left = R->stations - g->p[q].nst;
        o[SC_STATIONS] = (left > 0 ? left : 0) * R->station_points;
        o[SC_PATH] = paths && paths[q] >= 0 ? paths[q] : longest_trail(g, &N[q]);
        if (o[SC_PATH] < 0) unknown = 1;
        if (o[SC_PATH] > longest) longest = o[SC_PATH];
    }
    if (unknown) return -1;
    int give = longest >= 1 || R->bonus_at_zero;
    int64_t keys[MAXP][9];
    for (int32_t q = 0; q < n; q++) {
        int32_t *o = out + q * SC_FIELDS;
        o[SC_BONUS] = give && o[SC_PATH] == longest ? R->bonus_points : 0;
        o[SC_TOTAL] = o[SC_ROUTES] + o[SC_TICKETS] + o[SC_STATIONS] + o[SC_BONUS];
        keys[q][0] = o[SC_TOTAL];
        for (int32_t k = 0; k < R->ntiebreaks; k++) {
            int32_t tb = R->tiebreaks[k];
            keys[q][k + 1] = tb == TB_COMPLETED          ? o[SC_COMPLETED]
                             : tb == TB_FEWEST_STATIONS ? -g->p[q].nst
                             : tb == TB_BONUS_CARD      ? o[SC_BONUS] > 0
                                                        : o[SC_PATH];
        }
    }
    for (int32_t q = 0; q < n; q++) {
        int32_t rank = 1;
        for (int32_t other = 0; other < n; other++) {
            int32_t k = 0;
            while (k <= R->ntiebreaks && keys[other][k] == keys[q][k]) k++;
            rank += k <= R->ntiebreaks && keys[other][k] > keys[q][k];
        }
        out[q * SC_FIELDS + SC_RANK] = rank;
    }
    return 0;
}

/* ------------------------------------------------------------------ batch stepping (rl) */

/* Where rl.encoding's parts start (Layout.slices), in this order, then its size, the end of
 * its dense part, the layout's most players, ticket count, largest offer and face-up slots
 * (a game loaded with more than the layout holds writes only what fits). */
enum { O_HAND, O_DISCARD, O_PILE, O_DECK, O_BOX, O_TRAINS, O_STATIONS, O_SCORES, O_HAND_SIZES,
       O_TICKET_COUNTS, O_OFFER_COUNTS, O_PUBLIC, O_LAID, O_REVEALED, O_EXTRA, O_LAST_ROUND,
       O_FINAL, O_PASSES, O_PLAYER_COUNT, O_PHASE, O_CURRENT, O_FIRST, O_ROW, O_OWNERS,
       O_CLOSED, O_STATION_OWNERS, O_TICKETS, O_OFFER, O_TUNNEL_ROUTE, O_TUNNEL_COLOUR,
       O_SIZE, O_DENSE, O_MAXP, O_NTICKETS, O_MAX_OFFER, O_FACE_UP, O_FIELDS };

/* The observation of seat (Encoder.encode with the game's PublicHands). */
static void encode(const Game *g, int32_t seat, const int32_t *L, float *out) {
    const Rules *R = g->R;
    int32_t n = R->players, maxp = L[O_MAXP];
    memset(out, 0, sizeof(float) * (size_t)L[O_SIZE]);
    const Player *me = &g->p[seat];
    for (int k = 0; k < KINDS; k++) {
        out[L[O_HAND] + k] = (float)me->hand[k];
        out[L[O_DISCARD] + k] = (float)g->discard[k];
    }
    out[L[O_PILE]] = (float)(g->npile - g->top);
    out[L[O_DECK]] = (float)g->ndeck;
    out[L[O_BOX]] = (float)g->nbox;
    for (int32_t k = 0; k < n; k++) {
        const Player *P = &g->p[(seat + k) % n];
        out[L[O_TRAINS] + k] = (float)P->trains;
        out[L[O_STATIONS] + k] = (float)(R->stations - P->nst);
        out[L[O_SCORES] + k] = (float)P->score;
        out[L[O_HAND_SIZES] + k] = (float)total9(P->hand);
        out[L[O_TICKET_COUNTS] + k] = (float)P->ntk;
        out[L[O_OFFER_COUNTS] + k] = (float)P->noffer;
        for (int c = 0; c < KINDS; c++)
            out[L[O_PUBLIC] + k * KINDS + c] = (float)g->known[(seat + k) % n][c];
    }
    if (g->has_tunnel) {
        for (int k = 0; k < KINDS; k++) out[L[O_LAID] + k] = (float)g->tun_laid[k];
        for (int32_t i = 0; i < g->tun_nrev; i++)
            if (g->tun_rev[i] != NO_CARD) out[L[O_REVEALED] + g->tun_rev[i]] += 1.0f;
        out[L[O_EXTRA]] = (float)g->tun_extra;
        out[L[O_TUNNEL_COLOUR] + g->tun_colour] = 1.0f;
        out[L[O_TUNNEL_ROUTE] + g->tun_route] = 1.0f;
    }
    out[L[O_LAST_ROUND]] = g->final_turns >= 0 ? 1.0f : 0.0f;
    out[L[O_FINAL]] = g->final_turns > 0 ? (float)g->final_turns : 0.0f;
    out[L[O_PASSES]] = (float)g->passes;
    out[L[O_PLAYER_COUNT] + n - 1] = 1.0f;
    out[L[O_PHASE] + g->phase] = 1.0f;
    out[L[O_CURRENT] + (g->current - seat + n) % n] = 1.0f;
    out[L[O_FIRST] + (g->first - seat + n) % n] = 1.0f;
    for (int32_t s = 0; s < g->nrow && s < L[O_FACE_UP]; s++)
        out[L[O_ROW] + s * (KINDS + 1) + (g->row[s] == NO_CARD ? KINDS : g->row[s])] = 1.0f;
    for (int32_t r = 0; r < R->nroutes; r++) {
        if (g->owners[r] != NO_OWNER)
            out[L[O_OWNERS] + r * maxp + (g->owners[r] - seat + n) % n] = 1.0f;
        if (is_closed(g, seat, r)) out[L[O_CLOSED] + r] = 1.0f;
    }
    for (int32_t q = 0; q < n; q++)
        for (int32_t i = 0; i < g->p[q].nst; i++)
            out[L[O_STATION_OWNERS] + g->p[q].st[i] * maxp + (q - seat + n) % n] = 1.0f;
    for (int32_t i = 0; i < me->ntk; i++) out[L[O_TICKETS] + me->tk[i]] = 1.0f;
    for (int32_t i = 0; i < me->noffer && i < L[O_MAX_OFFER]; i++)
        out[L[O_OFFER] + i * L[O_NTICKETS] + me->offer[i]] = 1.0f;
}

/* The codec (codec.ActionCodec): face-up slots, blind, tickets, pass, withdraw, keep subsets,
 * claims per route (first code of each route), stations, tunnel payments. */
enum { C_FACE_UP, C_KEEP, C_STATION, C_PAY, C_SIZE, C_STATION_PATTERNS, C_ROUTES };

static int32_t pattern(const int32_t *pay, int32_t n) { /* payments(None, n, 0, ANY) index */
    int32_t colour = pay_colour(pay);
    return colour == LOCO ? 8 * n : colour * n + pay[LOCO];
}

static int64_t code_of(const Game *g, const Act *a, const int32_t *C) {
    const Rules *R = g->R;
    switch (a->kind) {
    case A_FACEUP: return C[C_FACE_UP] + a->arg;
    case A_BLIND: return C[C_KEEP] - 4;
    case A_TICKETS: return C[C_KEEP] - 3;
    case A_PASS: return C[C_KEEP] - 2;
    case A_WITHDRAW: return C[C_KEEP] - 1;
    case A_KEEP: return C[C_KEEP] + a->arg;
    case A_CLAIM: {
        int32_t r = a->arg, len = R->r_len[r], ferry = R->r_ferry[r];
        int32_t colour = pay_colour(a->pay), span = len - ferry;
        int32_t i;
        if (colour == LOCO)
            i = R->r_col[r] < 0 ? 8 * span : span;
        else
            i = (R->r_col[r] < 0 ? colour * span : 0) + a->pay[LOCO] - ferry;
        return C[C_ROUTES + r] + i;
    }
    case A_STATION: {
        int32_t n = g->p[g->current].nst + 1, before = 0;
        for (int32_t k = 1; k < n; k++) before += 8 * k + 1;
        return C[C_STATION] + (int64_t)a->arg * C[C_STATION_PATTERNS] + before + pattern(a->pay, n);
    }
    case A_PAY: {
        int32_t n = total9(a->pay), before = 0;
        for (int32_t k = 1; k < n; k++) before += 8 * k + 1;
        return C[C_PAY] + before + pattern(a->pay, n);
    }
    }
    return -1;
}

/* The legal-action mask over the codec's codes (codec.mask_bytes). */
static void mask_of(const Game *g, const int32_t *C, uint8_t *mask) {
    memset(mask, 0, (size_t)C[C_SIZE]);
    Legal L;
    legal(g, &L);
    Act a;
    if (g->phase == PH_INITIAL || g->phase == PH_CHOOSE) { /* every kept subset is a code */
        int32_t *all = malloc(sizeof(int32_t) * (size_t)(L.total ? L.total : 1)), unused;
        if (!all) return;
        keep_walk_all(g, -1, &unused, all);
        for (int64_t i = 0; i < L.total; i++)
            if (C[C_KEEP] + (int64_t)all[i] < C[C_ROUTES]) mask[C[C_KEEP] + all[i]] = 1;
        free(all);
        return;
    }
    for (int64_t i = 0; i < L.total; i++)
        if (!nth_action(g, &L, i, &a)) {
            int64_t code = code_of(g, &a, C);
            if (code >= 0 && code < C[C_SIZE]) mask[code] = 1;
        }
}

/* Pattern j of payments(None, n, 0, ANY) over n = 1, 2, ...: writes the payment; -1 if none. */
static int unpattern(int64_t j, int32_t most, int32_t *pay) {
    memset(pay, 0, KINDS * sizeof(int32_t));
    for (int32_t n = 1; n <= most; n++) {
        if (j < 8 * n + 1) {
            if (j == 8 * n) {
                pay[LOCO] = n;
            } else {
                pay[j / n] = n - (int32_t)(j % n);
                pay[LOCO] = (int32_t)(j % n);
            }
            return 0;
        }
        j -= 8 * n + 1;
    }
    return -1;
}

/* The action of a code (codec.decode), checked: 0, or -1 when it is not legal here. */
static int act_of_code(const Game *g, const int32_t *C, int64_t code, Act *a) {
    const Rules *R = g->R;
    memset(a, 0, sizeof *a);
    int64_t keep = C[C_KEEP], station = C[C_STATION], pay = C[C_PAY];
    if (code < 0 || code >= C[C_SIZE]) return -1;
    if (code < keep - 4) {
        a->kind = A_FACEUP;
        a->arg = (int32_t)(code - C[C_FACE_UP]);
    } else if (code < keep) {
        static const int32_t simple[4] = {A_BLIND, A_TICKETS, A_PASS, A_WITHDRAW};
        a->kind = simple[code - (keep - 4)];
    } else if (code < C[C_ROUTES]) {
        a->kind = A_KEEP;
        a->arg = (int32_t)(code - keep);
    } else if (code < station) {
        int32_t r = 0;
        while (r + 1 < R->nroutes && C[C_ROUTES + r + 1] <= code) r++;
        int32_t i = (int32_t)(code - C[C_ROUTES + r]), len = R->r_len[r], ferry = R->r_ferry[r];
        int32_t span = len - ferry, colour = R->r_col[r];
        a->kind = A_CLAIM;
        a->arg = r;
        if (colour < 0 && i < 8 * span) {
            colour = i / span;
            i %= span;
        } else if (colour < 0) {
            i = span;
        }
        if (i == span) {
            a->pay[LOCO] = len;
        } else {
            a->pay[colour] = len - ferry - i;
            a->pay[LOCO] = ferry + i;
        }
    } else if (code < pay) {
        int32_t patterns = C[C_STATION_PATTERNS];
        a->kind = A_STATION;
        a->arg = (int32_t)((code - station) / patterns);
        if (unpattern((code - station) % patterns, R->stations, a->pay)) return -1;
    } else {
        a->kind = A_PAY;
        if (unpattern(code - pay, REVEAL, a->pay)) return -1;
    }
    return check(g, a) == OK ? 0 : -1;
}

FG_API void fg_observe(const Game *g, const int32_t *L, const int32_t *C, float *obs,
                       uint8_t *mask) {
    encode(g, g->current, L, obs);
    mask_of(g, C, mask);
}

/* The observation of any seat (an environment shows every agent its own); -1 for no seat. */
FG_API int fg_encode(const Game *g, int32_t seat, const int32_t *L, float *obs) {
    if (seat < 0 || seat >= g->R->players) return -1;
    encode(g, seat, L, obs);
    return 0;
}

FG_API void fg_mask(const Game *g, const int32_t *C, uint8_t *mask) { mask_of(g, C, mask); }

/* Apply the code of the seat to act; -1, the game unchanged, when it is not legal there. */
FG_API int fg_apply_code(Game *g, const int32_t *C, int64_t code) {
    Act a;
    if (act_of_code(g, C, code, &a)) return -1;
    step(g, &a);
    return 0;
}

/* One step of each of n games: the code of each game's current seat is applied; a finished
 * game writes its returns (1/k to each of k winners, as scoring.returns), is dealt again
 * with the next seed (*next_seed, counted up; with no next_seed it is left over for the
 * caller to deal) and flagged in done (1); then every game's observation (of the seat to
 * act) and mask are written. A finished game whose longest trail is left to paths.py is
 * flagged 2 and left over, unobserved, for the caller. Returns -1 - i when game i's code is
 * not legal (games before i have stepped), else 0. */
FG_API int64_t fg_batch_step(Game **games, int64_t n, const int64_t *codes, const int32_t *L,
                      const int32_t *C, float *obs, uint8_t *mask, float *returns,
                      uint8_t *done, uint64_t *next_seed) {
    for (int64_t i = 0; i < n; i++) {
        Game *g = games[i];
        int32_t players = g->R->players, maxp = L[O_MAXP];
        Act a;
        done[i] = 0;
        for (int32_t q = 0; q < maxp; q++) returns[i * maxp + q] = 0.0f;
        if (act_of_code(g, C, codes[i], &a)) return -1 - i;
        step(g, &a);
        if (g->phase == PH_OVER) {
            int32_t out[MAXP * SC_FIELDS], winners = 0;
            if (fg_score(g, NULL, out)) { /* left to the caller: scored by the reference */
                done[i] = 2;
                continue;
            }
            for (int32_t q = 0; q < players; q++) winners += out[q * SC_FIELDS + SC_RANK] == 1;
            for (int32_t q = 0; q < players; q++)
                if (out[q * SC_FIELDS + SC_RANK] == 1) returns[i * maxp + q] = 1.0f / winners;
            done[i] = 1;
            if (next_seed) fg_setup(g, (*next_seed)++, -1);
        }
        fg_observe(g, L, C, obs + i * L[O_SIZE], mask + i * C[C_SIZE]);
    }
    return 0;
}

/* One seat's observation in each of n games, and its mask: the legal codes where that seat
 * is to act, zeros where another seat is or the game is over (a PettingZoo agent's view).
 * Returns -1, writing nothing, when some game has no such seat. */
FG_API int fg_batch_seat(Game *const *games, int64_t n, int32_t seat, const int32_t *L,
                  const int32_t *C, float *obs, uint8_t *mask) {
    for (int64_t i = 0; i < n; i++)
        if (seat < 0 || seat >= games[i]->R->players) return -1;
    for (int64_t i = 0; i < n; i++) {
        const Game *g = games[i];
        encode(g, seat, L, obs + i * L[O_SIZE]);
        if (g->current == seat && g->phase != PH_OVER) mask_of(g, C, mask + i * C[C_SIZE]);
        else memset(mask + i * C[C_SIZE], 0, (size_t)C[C_SIZE]);
    }
    return 0;
}

FG_API void fg_known(const Game *g, int32_t *out) { memcpy(out, g->known, sizeof g->known); }

/* ------------------------------------------------------------------ the greedy policy (mcts.Playout) */

#define HOARD 12        /* a hand this large claims for points whatever the tickets say */
#define MORE_TICKETS 20 /* trains needed to draw tickets once the seat's own are connected */

typedef struct {
    int32_t traced[MAXP];         /* the ticket count the paths were traced for; -1: none */
    uint64_t path[MAXP][MAXT][MAXW];
} Targets;

/* bots.shortest_path: Dijkstra with own routes free, free routes by length, others' closed;
 * the routes of the path found (all of them) in mask; 0 when the cities are not joined. */
static int shortest_path(const Game *g, int32_t seat, int32_t source, int32_t target,
                         uint64_t *mask) {
    const Rules *R = g->R;
    int32_t best[MAXC], back_route[MAXC], back_city[MAXC];
    int32_t heap_d[2 * MAXR + 2], heap_c[2 * MAXR + 2], n = 0;
    for (int32_t c = 0; c < R->ncities; c++) best[c] = INT32_MAX;
    memset(mask, 0, MAXW * sizeof(uint64_t));
    best[source] = 0;
    heap_d[0] = 0;
    heap_c[n++] = source;
    while (n) {
        int32_t dist = heap_d[0], city = heap_c[0];
        n--; /* pop: the last entry sinks from the root */
        int32_t i = 0, d = heap_d[n], c = heap_c[n];
        for (;;) {
            int32_t k = 2 * i + 1;
            if (k >= n) break;
            if (k + 1 < n && (heap_d[k + 1] < heap_d[k] ||
                              (heap_d[k + 1] == heap_d[k] && heap_c[k + 1] < heap_c[k])))
                k++;
            if (heap_d[k] > d || (heap_d[k] == d && heap_c[k] >= c)) break;
            heap_d[i] = heap_d[k];
            heap_c[i] = heap_c[k];
            i = k;
        }
        heap_d[i] = d;
        heap_c[i] = c;
        if (city == target) {
            while (city != source) {
                int32_t r = back_route[city];
                mask[r >> 6] |= 1ULL << (r & 63);
                city = back_city[city];
            }
            return 1;
        }
        if (dist > best[city]) continue;
        for (int32_t j = R->adj_start[city]; j < R->adj_start[city + 1]; j++) {
            int32_t r = R->adj_route[j], other = R->adj_other[j], owner = g->owners[r], step;
            if (owner == seat)
                step = dist;
            else if (owner == NO_OWNER)
                step = dist + R->r_len[r];
            else
                continue;
            if (step < best[other]) {
                best[other] = step;
                back_route[other] = r;
                back_city[other] = city;
                if (n >= 2 * MAXR + 2) return 0; /* cannot happen: one push per relaxation */
                int32_t at = n++; /* push: sift up */
                while (at > 0) {
                    int32_t up = (at - 1) / 2;
                    if (heap_d[up] < step || (heap_d[up] == step && heap_c[up] <= other)) break;
                    heap_d[at] = heap_d[up];
                    heap_c[at] = heap_c[up];
                    at = up;
                }
                heap_d[at] = step;
                heap_c[at] = other;
            }
        }
    }
    return 0;
}

/* Playout.targets: the free routes on the seat's cheapest ticket paths, traced again only
 * when another seat takes one of a path's routes or the seat's tickets change. */
static void targets(const Game *g, Targets *T, int32_t seat, uint64_t *wanted) {
    const Rules *R = g->R;
    const Player *P = &g->p[seat];
    uint64_t owned[MAXW] = {0}, theirs[MAXW] = {0};
    for (int32_t r = 0; r < R->nroutes; r++)
        if (g->owners[r] != NO_OWNER) {
            owned[r >> 6] |= 1ULL << (r & 63);
            if (g->owners[r] != seat) theirs[r >> 6] |= 1ULL << (r & 63);
        }
    int retrace = T->traced[seat] != P->ntk;
    memset(wanted, 0, MAXW * sizeof(uint64_t));
    for (int32_t i = 0; i < P->ntk; i++) {
        uint64_t *path = T->path[seat][i];
        int again = retrace;
        for (int w = 0; w < MAXW && !again; w++) again = (path[w] & theirs[w]) != 0;
        if (again) {
            int32_t t = P->tk[i];
            if (!shortest_path(g, seat, R->t_a[t], R->t_b[t], path))
                memset(path, 0, MAXW * sizeof(uint64_t));
        }
        for (int w = 0; w < MAXW; w++) { /* a route the seat took just leaves its path */
            path[w] &= ~owned[w];
            wanted[w] |= path[w];
        }
    }
    T->traced[seat] = P->ntk;
}

/* mcts.cheapest_payment: fewest locomotives, then the colour held most; -1 if none pays. */
static int cheapest_payment(int32_t colour, int32_t len, int32_t ferry, const int32_t *hand,
                            int32_t *pay) {
    int32_t locos = hand[LOCO], best_colour = -1, best_locos = len, best_held = 0;
    if (colour != LOCO) {
        int32_t lo = colour < 0 ? 0 : colour, hi = colour < 0 ? 7 : colour;
        for (int32_t c = lo; c <= hi; c++) {
            int32_t held = hand[c];
            if (!held) continue;
            int32_t need = len - held > ferry ? len - held : ferry;
            if (need <= locos && need < len &&
                (need < best_locos || (need == best_locos && held > best_held))) {
                best_colour = c;
                best_locos = need;
                best_held = held;
            }
        }
    }
    memset(pay, 0, KINDS * sizeof(int32_t));
    if (best_colour >= 0) {
        pay[best_colour] = len - best_locos;
        pay[LOCO] = best_locos;
    } else if (locos >= len) {
        pay[LOCO] = len;
    } else {
        return -1;
    }
    return 0;
}

static int can_pay(int32_t colour, int32_t len, int32_t ferry, const int32_t *hand) {
    int32_t locos = hand[LOCO];
    if (locos >= len) return 1;
    if (locos < ferry) return 0;
    int32_t held = 0;
    if (colour < 0) {
        for (int c = 0; c < LOCO; c++)
            if (hand[c] > held) held = hand[c];
    } else {
        held = hand[colour];
    }
    return held > 0 && held + locos >= len;
}

/* Playout._claim / _longest_claim: the longest claimable route of mask (all routes when mask
 * is NULL), the lowest index among equals, with its cheapest payment; 0 if none. */
static int best_claim(const Game *g, const uint64_t *mask, Act *a) {
    const Rules *R = g->R;
    const Player *P = &g->p[g->current];
    int32_t best = -1;
    for (int32_t r = 0; r < R->nroutes; r++) {
        if (mask && !(mask[r >> 6] >> (r & 63) & 1)) continue;
        if (R->r_len[r] > P->trains || is_closed(g, g->current, r)) continue;
        if (best >= 0 && R->r_len[r] <= R->r_len[best]) continue;
        if (can_pay(R->r_col[r], R->r_len[r], R->r_ferry[r], P->hand)) best = r;
    }
    if (best < 0) return 0;
    memset(a, 0, sizeof *a);
    a->kind = A_CLAIM;
    a->arg = best;
    cheapest_payment(R->r_col[best], R->r_len[best], R->r_ferry[best], P->hand, a->pay);
    return 1;
}

static int any_bit(const uint64_t *m) {
    for (int w = 0; w < MAXW; w++)
        if (m[w]) return 1;
    return 0;
}

/* The face-up slot the greedy policies take: the first card of a colour one of the wanted routes
 * takes (a gray route taking the colour the seat holds most of), else a locomotive at a turn's
 * start if any route is wanted; -1 when neither is there. Shared by the greedy playout and the
 * greedy bot, which draw alike. */
static int32_t wanted_faceup(const Game *g, const uint64_t *wanted, int second) {
    const Rules *R = g->R;
    const int32_t *hand = g->p[g->current].hand;
    int32_t colours[KINDS] = {0}, gray = 0, want = 0;
    for (int32_t w = 0; w < MAXW; w++)
        for (uint64_t m = wanted[w]; m; m &= m - 1) {
            int32_t r = w * 64 + ctz64(m);
            want = 1;
            if (R->r_col[r] < 0)
                gray = 1;
            else
                colours[R->r_col[r]] = 1;
        }
    if (gray) {
        int32_t most = 0;
        for (int32_t c = 1; c < LOCO; c++)
            if (hand[c] > hand[most]) most = c;
        colours[most] = 1;
    }
    for (int32_t s = 0; s < g->nrow; s++)
        if (g->row[s] >= 0 && g->row[s] < LOCO && colours[g->row[s]]) return s;
    if (!second && want)
        for (int32_t s = 0; s < g->nrow; s++)
            if (g->row[s] == LOCO) return s;
    return -1;
}

static void greedy_draw(const Game *g, const uint64_t *wanted, int second, Act *a) {
    memset(a, 0, sizeof *a);
    a->kind = A_FACEUP;
    a->arg = wanted_faceup(g, wanted, second);
    if (a->arg >= 0) return;
    a->arg = 0;
    if (cards_left(g)) {
        a->kind = A_BLIND;
        return;
    }
    for (int32_t s = 0; s < g->nrow; s++)
        if (g->row[s] != NO_CARD && g->row[s] != LOCO) {
            a->arg = s;
            return;
        }
    if (!second && best_claim(g, NULL, a)) return;
    Legal L;
    legal(g, &L);
    nth_action(g, &L, 0, a);
}

/* Playout.keep: the fewest tickets allowed, the cheapest to connect (path trains less half
 * the points, each ticket; compared doubled, so in whole numbers). */
/* Each offered ticket's cost to the greedy policies: the trains of its cheapest path (99 when
 * it cannot be connected), doubled, less its points. */
static void offer_costs(const Game *g, int32_t *cost) {
    const Rules *R = g->R;
    const Player *P = &g->p[g->current];
    for (int32_t i = 0; i < P->noffer; i++) {
        int32_t t = P->offer[i], length = 99;
        uint64_t mask[MAXW];
        if (shortest_path(g, g->current, R->t_a[t], R->t_b[t], mask)) {
            length = 0;
            for (int32_t r = 0; r < R->nroutes; r++)
                if (mask[r >> 6] >> (r & 63) & 1) length += R->r_len[r];
        }
        cost[i] = 2 * length - R->t_points[t];
    }
}

static void greedy_keep(const Game *g, Act *a) {
    const Player *P = &g->p[g->current];
    int32_t cost[MAXOFFER];
    offer_costs(g, cost);
    int32_t unused;
    int64_t count = keep_walk(g, -1, &unused);
    int32_t *all = malloc(sizeof(int32_t) * (size_t)(count ? count : 1));
    if (!all) return;
    keep_walk_all(g, -1, &unused, all);
    int32_t best = -1, best_size = 0;
    int64_t best_cost = 0;
    for (int64_t k = 0; k < count; k++) {
        int32_t m = all[k];
        int32_t size = pop64((uint64_t)m);
        int64_t sum = 0;
        for (int32_t i = 0; i < P->noffer; i++)
            if (m >> i & 1) sum += cost[i];
        if (best < 0) {
            best_size = size;
        } else if (size != best_size || sum >= best_cost) {
            continue;
        }
        best = m;
        best_cost = sum;
    }
    free(all);
    memset(a, 0, sizeof *a);
    a->kind = A_KEEP;
    a->arg = best;
}

static void greedy_choose(const Game *g, Targets *T, Act *a) {
    const Player *P = &g->p[g->current];
    uint64_t wanted[MAXW];
    memset(a, 0, sizeof *a);
    switch (g->phase) {
    case PH_TURN: {
        targets(g, T, g->current, wanted);
        if (best_claim(g, wanted, a)) return;
        int want = any_bit(wanted);
        if (!want && g->ndeck && P->trains >= MORE_TICKETS) {
            a->kind = A_TICKETS;
            return;
        }
        if ((!want || total9(P->hand) >= HOARD) && best_claim(g, NULL, a)) return;
        greedy_draw(g, wanted, 0, a);
        return;
    }
    case PH_SECOND:
        targets(g, T, g->current, wanted);
        greedy_draw(g, wanted, 1, a);
        return;
    case PH_TUNNEL:
        a->kind = cheapest_payment(g->tun_colour, g->tun_extra, 0, P->hand, a->pay) ? A_WITHDRAW
                                                                                     : A_PAY;
        return;
    default:
        greedy_keep(g, a);
    }
}

/* Playout.finish: the greedy policy to the end or max_steps actions; the actions applied.
 * -1 when the policy's move is refused (it never is; checked rather than trusted). */
FG_API int64_t fg_greedy_playout(Game *g, int64_t max_steps) {
    Targets *T = malloc(sizeof(Targets));
    if (!T) return -2;
    for (int q = 0; q < MAXP; q++) T->traced[q] = -1;
    int64_t steps = 0;
    Act a;
    while (g->phase != PH_OVER && steps < max_steps) {
        greedy_choose(g, T, &a);
        if (fg_apply(g, &a)) {
            steps = -1;
            break;
        }
        steps++;
    }
    free(T);
    return steps;
}

/* ------------------------------------------------------------------ the search's walk (mcts) */

/* A move as one int64, the same in every world (mcts.CoreMctsBot's tree is keyed by it, as
 * MctsBot's by the action): the kind in 4 bits, then for a keep the number of tickets kept in
 * 3 and each ticket kept in 8 (in the map's order: the same set, the same key), for any other
 * move the argument in 20 and 4 bits per card of the payment. -1 for a move with no key: more
 * than KEY_KEPT tickets kept, or a payment of 16 cards or more of a kind (no map has either). */
#define KEY_ARG_BITS 20
#define KEY_KEPT 7
static int64_t act_key(const Game *g, const Act *a) {
    if (a->kind == A_KEEP) {
        const Player *P = &g->p[g->current];
        int32_t kept[KEY_KEPT], n = 0;
        for (int32_t i = 0; i < P->noffer; i++)
            if (a->arg >> i & 1) {
                if (n == KEY_KEPT) return -1;
                int32_t at = n++; /* kept in ticket order: a set, as KeepTickets compares */
                while (at > 0 && kept[at - 1] > P->offer[i]) {
                    kept[at] = kept[at - 1];
                    at--;
                }
                kept[at] = P->offer[i];
            }
        int64_t key = A_KEEP | (int64_t)n << 4;
        for (int32_t j = 0; j < n; j++) key |= (int64_t)kept[j] << (7 + 8 * j);
        return key;
    }
    if (a->arg < 0 || a->arg >= 1 << KEY_ARG_BITS) return -1;
    int64_t key = (int64_t)a->kind | (int64_t)a->arg << 4;
    for (int32_t k = 0; k < KINDS; k++) {
        if (a->pay[k] < 0 || a->pay[k] > 15) return -1;
        key |= (int64_t)a->pay[k] << (4 + KEY_ARG_BITS + 4 * k);
    }
    return key;
}

/* The move of a key in g (a keep of tickets not all on offer keeps none: refused). */
static void key_act(const Game *g, int64_t key, Act *a) {
    memset(a, 0, sizeof *a);
    a->kind = (int32_t)(key & 15);
    if (a->kind == A_KEEP) {
        const Player *P = &g->p[g->current];
        for (int32_t n = (int32_t)(key >> 4 & 7), j = 0; j < n; j++) {
            int32_t t = (int32_t)(key >> (7 + 8 * j) & 255), found = 0;
            for (int32_t i = 0; i < P->noffer; i++)
                if (P->offer[i] == t) {
                    a->arg |= 1 << i;
                    found = 1;
                }
            if (!found) {
                a->arg = 0;
                return;
            }
        }
        return;
    }
    a->arg = (int32_t)(key >> 4 & ((1 << KEY_ARG_BITS) - 1));
    for (int32_t k = 0; k < KINDS; k++)
        a->pay[k] = (int32_t)(key >> (4 + KEY_ARG_BITS + 4 * k) & 15);
}

#define PATH_CLAIMS 3  /* mcts._PATH_CLAIMS: the longest claims on the ticket paths searched */
#define OTHER_CLAIMS 2 /* mcts._OTHER_CLAIMS: and off them */

/* Adds the key of a to keys (n of them so far, room for cap) unless it is there; the new n. */
static int64_t add_key(const Game *g, int64_t *keys, int64_t n, int64_t cap, const Act *a) {
    int64_t key = act_key(g, a);
    if (key < 0) return -1;
    for (int64_t i = 0; i < n && i < cap; i++)
        if (keys[i] == key) return n;
    if (n < cap) keys[n] = key;
    return n + 1;
}

/* mcts.search_moves at the seat's turn start or ticket choice, the policy's move first. */
static int64_t search_keys(const Game *g, Targets *T, int64_t *keys, int64_t cap) {
    const Rules *R = g->R;
    const Player *P = &g->p[g->current];
    Act a;
    greedy_choose(g, T, &a);
    int64_t n = add_key(g, keys, 0, cap, &a);
    if (g->phase == PH_TURN) {
        uint64_t wanted[MAXW];
        targets(g, T, g->current, wanted);
        int32_t left[2] = {OTHER_CLAIMS, PATH_CLAIMS}, longest = 0, found = 0;
        for (int32_t r = 0; r < R->nroutes; r++)
            if (R->r_len[r] > longest) longest = R->r_len[r];
        for (int32_t len = longest; len > 0 && n >= 0; len--) /* Playout.by_length's order */
            for (int32_t r = 0; r < R->nroutes && n >= 0; r++) {
                int on_path = (int)(wanted[r >> 6] >> (r & 63) & 1);
                if (R->r_len[r] != len || !left[on_path] || len > P->trains ||
                    is_closed(g, g->current, r))
                    continue;
                if (!can_pay(R->r_col[r], len, R->r_ferry[r], P->hand)) continue;
                memset(&a, 0, sizeof a);
                a.kind = A_CLAIM;
                a.arg = r;
                cheapest_payment(R->r_col[r], len, R->r_ferry[r], P->hand, a.pay);
                n = add_key(g, keys, n, cap, &a);
                left[on_path]--;
                found++;
            }
        int seen[KINDS] = {0};
        memset(&a, 0, sizeof a);
        for (int32_t s = 0; s < g->nrow && n >= 0; s++)
            if (g->row[s] != NO_CARD && !seen[g->row[s]]) {
                seen[g->row[s]] = 1;
                a.kind = A_FACEUP;
                a.arg = s;
                n = add_key(g, keys, n, cap, &a);
                found++;
            }
        memset(&a, 0, sizeof a);
        if (n >= 0 && cards_left(g)) {
            a.kind = A_BLIND;
            n = add_key(g, keys, n, cap, &a);
            found++;
        }
        if (n >= 0 && g->ndeck) {
            a.kind = A_TICKETS;
            n = add_key(g, keys, n, cap, &a);
            found++;
        }
        if (n >= 0 && !found) { /* search_moves: the first legal move when none of those is */
            Legal L;
            legal(g, &L);
            if (L.total && !nth_action(g, &L, 0, &a)) n = add_key(g, keys, n, cap, &a);
        }
        return n;
    }
    int32_t unused;
    int64_t count = keep_walk(g, -1, &unused);
    int32_t *all = malloc(sizeof(int32_t) * (size_t)(count ? count : 1));
    if (!all) return -1;
    keep_walk_all(g, -1, &unused, all);
    memset(&a, 0, sizeof a);
    a.kind = A_KEEP;
    for (int64_t k = 0; k < count && n >= 0; k++) {
        a.arg = all[k];
        n = add_key(g, keys, n, cap, &a);
    }
    free(all);
    return n;
}

/* One step of the search's walk (mcts.CoreMctsBot): the greedy policy plays every seat but
 * seat, and seat's second draws and tunnels, until seat is to start a turn or choose tickets
 * (or the game ends, or max_steps actions); then the keys of the moves searched there, the
 * policy's first (written while they fit in cap, counted in all). The policy remembers its
 * paths in T from one step to the next, as mcts.Playout does within an iteration; fresh
 * forgets them first. 0 once the game is over or the steps are spent, -1 on a fault (a
 * refused policy move: never; checked). */
FG_API int64_t fg_search_step(Game *g, Targets *T, int32_t fresh, int32_t seat, int64_t *keys,
                              int64_t cap, int64_t max_steps) {
    if (fresh)
        for (int q = 0; q < MAXP; q++) T->traced[q] = -1;
    int64_t steps = 0, n = 0;
    Act a;
    for (;;) {
        if (g->phase == PH_OVER || steps >= max_steps) break;
        if (g->current == seat &&
            (g->phase == PH_TURN || g->phase == PH_INITIAL || g->phase == PH_CHOOSE)) {
            n = search_keys(g, T, keys, cap);
            break;
        }
        greedy_choose(g, T, &a);
        if (fg_apply(g, &a)) {
            n = -1;
            break;
        }
        steps++;
    }
    return n;
}

/* The paths the walk's policy remembers between steps (mcts.Playout's), for fg_search_step. */
FG_API Targets *fg_targets_new(void) { return malloc(sizeof(Targets)); }

FG_API void fg_targets_free(Targets *T) { free(T); }

/* Applies the move of a key (fg_search_step's); fg_apply's answer. */
FG_API int fg_apply_key(Game *g, int64_t key) {
    Act a;
    key_act(g, key, &a);
    return fg_apply(g, &a);
}

/* ------------------------------------------------------------------ the bots (bots.py) */

/* Python's random.Random (MT19937, as CPython's _randommodule.c has it), for the generator a
 * driver hands each seat's bot (bots.seat_rng): seeded from the words of the integer that
 * random.seed makes of the seed text (fast/__init__.py computes them, sha512 included). */
#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t mt[MT_N];
    int32_t index;
} Twister;

static void mt_seed(Twister *t, uint32_t s) {
    t->mt[0] = s;
    for (int32_t i = 1; i < MT_N; i++)
        t->mt[i] = 1812433253U * (t->mt[i - 1] ^ (t->mt[i - 1] >> 30)) + (uint32_t)i;
    t->index = MT_N;
}

static void mt_seed_key(Twister *t, const uint32_t *key, int32_t n) {
    mt_seed(t, 19650218U);
    int32_t i = 1, j = 0;
    for (int32_t k = MT_N > n ? MT_N : n; k; k--) {
        t->mt[i] = (t->mt[i] ^ ((t->mt[i - 1] ^ (t->mt[i - 1] >> 30)) * 1664525U)) + key[j] +
                   (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            t->mt[0] = t->mt[MT_N - 1];
            i = 1;
        }
        if (j >= n) j = 0;
    }
    for (int32_t k = MT_N - 1; k; k--) {
        t->mt[i] = (t->mt[i] ^ ((t->mt[i - 1] ^ (t->mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            t->mt[0] = t->mt[MT_N - 1];
            i = 1;
        }
    }
    t->mt[0] = 0x80000000U;
}

static uint32_t mt_next(Twister *t) {
    static const uint32_t mag01[2] = {0U, 0x9908b0dfU};
    uint32_t y;
    if (t->index >= MT_N) {
        int32_t k;
        for (k = 0; k < MT_N - MT_M; k++) {
            y = (t->mt[k] & 0x80000000U) | (t->mt[k + 1] & 0x7fffffffU);
            t->mt[k] = t->mt[k + MT_M] ^ (y >> 1) ^ mag01[y & 1U];
        }
        for (; k < MT_N - 1; k++) {
            y = (t->mt[k] & 0x80000000U) | (t->mt[k + 1] & 0x7fffffffU);
            t->mt[k] = t->mt[k + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 1U];
        }
        y = (t->mt[MT_N - 1] & 0x80000000U) | (t->mt[0] & 0x7fffffffU);
        t->mt[MT_N - 1] = t->mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 1U];
        t->index = 0;
    }
    y = t->mt[t->index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
}

/* rng.randrange(n) for 0 < n < 2**63: getrandbits(n.bit_length()) until it is below n. */
static int64_t mt_below(Twister *t, int64_t n) {
    int32_t k = 0;
    while (k < 63 && (n >> k)) k++;
    for (;;) {
        uint64_t r = mt_next(t);
        if (k <= 32)
            r >>= 32 - k;
        else
            r |= (uint64_t)(mt_next(t) >> (64 - k)) << 32;
        if ((int64_t)r < n) return (int64_t)r;
    }
}

/* The index of the lowest bit set in m (m != 0), with no compiler builtin. */
static int32_t low_bit(uint64_t m) { return pop64((m & (~m + 1)) - 1); }

/* The bots the core plays, as fast/__init__.py's CORE_BOTS names them. */
enum { BOT_RANDOM, BOT_GREEDY, BOT_CLAIMER, BOT_SAVER, BOT_KINDS };

/* bots.cheapest over the n payments listed for (colour, len, minl): fewest locomotives, then
 * the colour held most, the first listed among equals. */
static void cheapest_listed(int32_t colour, int32_t len, int32_t minl, int32_t n,
                            const int32_t *hand, int32_t *best) {
    int32_t pay[KINDS], best_locos = 0, best_held = 0;
    for (int32_t i = 0; i < n; i++) {
        nth_pay(colour, len, minl, hand, i, pay);
        int32_t held = 0;
        for (int32_t c = 0; c < LOCO; c++)
            if (pay[c] && hand[c] > held) held = hand[c];
        if (i == 0 || pay[LOCO] < best_locos || (pay[LOCO] == best_locos && held > best_held)) {
            memcpy(best, pay, sizeof pay);
            best_locos = pay[LOCO];
            best_held = held;
        }
    }
}

/* GreedyBot's reading of a turn: the routes it may claim (the legal claims, by route) and the
 * free routes on its tickets' cheapest paths, traced afresh (GreedyBot._wanted_routes). */
typedef struct {
    uint64_t claimable[MAXW], wanted[MAXW];
    int32_t kind_at[MAXR]; /* the entry of Legal's kinds a claimable route is listed under */
} Reading;

static void read_turn(const Game *g, const Legal *L, Reading *S) {
    const Rules *R = g->R;
    int32_t seat = g->current;
    memset(S->claimable, 0, sizeof S->claimable);
    memset(S->wanted, 0, sizeof S->wanted);
    if (g->phase == PH_TURN)
        for (int32_t j = 0; j < L->nk; j++) {
            int32_t k = L->kind[j];
            for (int32_t w = 0; w < MAXW; w++) {
                uint64_t m = R->k_mask[k][w] & ~g->closed[seat][w];
                S->claimable[w] |= m;
                for (; m; m &= m - 1) S->kind_at[w * 64 + low_bit(m)] = j;
            }
        }
    uint64_t owned[MAXW] = {0}, path[MAXW];
    for (int32_t r = 0; r < R->nroutes; r++)
        if (g->owners[r] != NO_OWNER) owned[r >> 6] |= 1ULL << (r & 63);
    const Player *P = &g->p[seat];
    for (int32_t i = 0; i < P->ntk; i++) {
        int32_t t = P->tk[i];
        if (shortest_path(g, seat, R->t_a[t], R->t_b[t], path))
            for (int32_t w = 0; w < MAXW; w++) S->wanted[w] |= path[w] & ~owned[w];
    }
}

/* bots._longest_claim: the longest claimable route of mask (every claimable one when NULL),
 * the lowest index among equals, claimed with its cheapest listed payment; 0 if none. */
static int longest_claim(const Game *g, const Legal *L, const Reading *S, const uint64_t *mask,
                         Act *a) {
    const Rules *R = g->R;
    int32_t best = -1;
    for (int32_t w = 0; w < MAXW; w++)
        for (uint64_t m = S->claimable[w] & (mask ? mask[w] : ~0ULL); m; m &= m - 1) {
            int32_t r = w * 64 + low_bit(m);
            if (best < 0 || R->r_len[r] > R->r_len[best]) best = r;
        }
    if (best < 0) return 0;
    int32_t j = S->kind_at[best], k = L->kind[j];
    memset(a, 0, sizeof *a);
    a->kind = A_CLAIM;
    a->arg = best;
    cheapest_listed(R->k_col[k], R->k_len[k], R->k_ferry[k], L->kpays[j], g->p[g->current].hand,
                    a->pay);
    return 1;
}

/* GreedyBot._draw: a face-up card of a wanted colour, a locomotive for a wanted route at a turn's
 * start, a blind card, else any legal move but a station (any at all if only those) drawn from
 * the seat's generator. 0, or -1 when nothing is legal. */
static int bot_draw(const Game *g, const Legal *L, const uint64_t *wanted, int second,
                    Twister *t, Act *a) {
    memset(a, 0, sizeof *a);
    a->kind = A_FACEUP;
    a->arg = wanted_faceup(g, wanted, second);
    if (a->arg >= 0) return 0;
    a->arg = 0;
    if (cards_left(g)) {
        a->kind = A_BLIND;
        return 0;
    }
    int64_t rest = g->phase == PH_TURN ? L->nhead + L->claims : L->total;
    if (!rest) rest = L->total;
    if (!rest) return -1;
    return nth_action(g, L, mt_below(t, rest), a);
}

/* GreedyBot._keep: the fewest tickets allowed, taken cheapest first (path length less half the
 * points, compared doubled; the offer's order among equals), if that choice is legal, else the
 * first legal one. */
static int bot_keep(const Game *g, Act *a) {
    const Player *P = &g->p[g->current];
    int32_t cost[MAXOFFER], order[MAXOFFER];
    offer_costs(g, cost);
    for (int32_t i = 0; i < P->noffer; i++) {
        int32_t at = i; /* a stable insertion sort, as sorted() */
        while (at > 0 && cost[order[at - 1]] > cost[i]) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = i;
    }
    int32_t unused;
    int64_t count = keep_walk(g, -1, &unused);
    if (count <= 0) return -1;
    int32_t *all = malloc(sizeof(int32_t) * (size_t)count);
    if (!all) return -1;
    keep_walk_all(g, -1, &unused, all);
    int32_t smallest = MAXOFFER + 1;
    for (int64_t k = 0; k < count; k++)
        if (pop64((uint64_t)all[k]) < smallest) smallest = pop64((uint64_t)all[k]);
    int32_t mask = 0;
    for (int32_t i = 0; i < smallest && i < P->noffer; i++) mask |= 1 << order[i];
    int32_t chosen = all[0];
    for (int64_t k = 0; k < count; k++)
        if (all[k] == mask) chosen = mask;
    free(all);
    memset(a, 0, sizeof *a);
    a->kind = A_KEEP;
    a->arg = chosen;
    return 0;
}

/* GreedyBot.choose. 0, or -1 when it finds no move. */
static int greedy_bot(const Game *g, const Legal *L, Twister *t, Act *a) {
    const Player *P = &g->p[g->current];
    Reading S;
    switch (g->phase) {
    case PH_INITIAL:
    case PH_CHOOSE:
        return bot_keep(g, a);
    case PH_TUNNEL:
        memset(a, 0, sizeof *a);
        a->kind = L->tunnel_pays ? A_PAY : A_WITHDRAW;
        if (L->tunnel_pays)
            cheapest_listed(g->tun_colour, g->tun_extra, 0, L->tunnel_pays, P->hand, a->pay);
        return 0;
    case PH_SECOND:
        read_turn(g, L, &S);
        return bot_draw(g, L, S.wanted, 1, t, a);
    case PH_TURN: {
        read_turn(g, L, &S);
        if (longest_claim(g, L, &S, S.wanted, a)) return 0;
        int want = any_bit(S.wanted);
        if (!want && g->ndeck && P->trains >= MORE_TICKETS) {
            memset(a, 0, sizeof *a);
            a->kind = A_TICKETS;
            return 0;
        }
        if ((!want || total9(P->hand) >= HOARD) && longest_claim(g, L, &S, NULL, a)) return 0;
        return bot_draw(g, L, S.wanted, 0, t, a);
    }
    default:
        return -1;
    }
}

#define SAVE_FOR 3 /* ladder.SAVE_FOR: the shortest route a SaverBot claims with trains to spare */

/* ladder._draw: the first of slots (n of them) that may be drawn face up, else a blind card,
 * else any legal move but a station (any at all if only those), from the seat's generator. */
static int ladder_draw(const Game *g, const Legal *L, const int32_t *slots, int32_t n,
                       Twister *t, Act *a) {
    memset(a, 0, sizeof *a);
    for (int32_t i = 0; i < n; i++) {
        int32_t card = g->row[slots[i]];
        if (card != NO_CARD && (g->phase == PH_TURN || card != LOCO)) {
            a->kind = A_FACEUP;
            a->arg = slots[i];
            return 0;
        }
    }
    if (cards_left(g)) {
        a->kind = A_BLIND;
        return 0;
    }
    int64_t rest = g->phase == PH_TURN ? L->nhead + L->claims : L->total;
    if (!rest) rest = L->total;
    if (!rest) return -1;
    return nth_action(g, L, mt_below(t, rest), a);
}

/* ladder.ClaimerBot and ladder.SaverBot: the fewest tickets (the first such choice listed),
 * the cheapest tunnel payment, the longest claim (of SAVE_FOR cars or more for a saver with
 * trains to spare) at a turn's start, else a draw (a saver's: face up, its two colours held
 * most, most first). 0, or -1 when it finds no move. */
static int ladder_bot(const Game *g, const Legal *L, int saver, Twister *t, Act *a) {
    const Player *P = &g->p[g->current];
    if (g->phase == PH_INITIAL || g->phase == PH_CHOOSE) return nth_action(g, L, 0, a);
    if (g->phase == PH_TUNNEL) {
        memset(a, 0, sizeof *a);
        a->kind = L->tunnel_pays ? A_PAY : A_WITHDRAW;
        if (L->tunnel_pays)
            cheapest_listed(g->tun_colour, g->tun_extra, 0, L->tunnel_pays, P->hand, a->pay);
        return 0;
    }
    if (g->phase == PH_TURN) {
        Reading S;
        read_turn(g, L, &S);
        int32_t shortest = saver && P->trains > 2 * SAVE_FOR ? SAVE_FOR : 1;
        if (longest_claim(g, L, &S, NULL, a) && g->R->r_len[a->arg] >= shortest) return 0;
    }
    int32_t slots[2 * MAXROW], n = 0;
    if (saver) {
        int32_t colours[LOCO];
        for (int32_t c = 0; c < LOCO; c++) { /* stable, most held first (sorted by -hand[c]) */
            int32_t at = c;
            while (at > 0 && P->hand[colours[at - 1]] < P->hand[c]) {
                colours[at] = colours[at - 1];
                at--;
            }
            colours[at] = c;
        }
        for (int32_t k = 0; k < 2; k++)
            for (int32_t s = 0; s < g->nrow; s++)
                if (g->row[s] == colours[k]) slots[n++] = s;
    }
    return ladder_draw(g, L, slots, n, t, a);
}

#define REC_WORDS (2 + MAXOFFER) /* a recorded action: kind, arg, then a payment or tickets */

/* What sim.games.play_game plays when every seat's bot is one of these: seat q's bot is
 * bots[q], drawing from its own generator seeded with its key words (keys, key_len[q] words
 * each, one seat after the other), until the game ends or max_actions actions (the loop's
 * cap). With record, each action is written in REC_WORDS words (a kept ticket choice as its
 * count and the tickets), at most rec_cap of them. Returns the actions applied; -1 when a bot
 * found no move or its move was refused (the reference plays such a game), -2 when rec_cap
 * was too small. */
FG_API int64_t fg_play_bots(Game *g, const int32_t *bots, const uint32_t *keys,
                            const int32_t *key_len, int64_t max_actions, int32_t *record,
                            int64_t rec_cap) {
    const Rules *R = g->R;
    Twister *twisters = malloc(sizeof(Twister) * (size_t)R->players);
    if (!twisters) return -1;
    for (int32_t q = 0, at = 0; q < R->players; at += key_len[q++]) {
        if (bots[q] < 0 || bots[q] >= BOT_KINDS || key_len[q] < 1) {
            free(twisters);
            return -1;
        }
        mt_seed_key(&twisters[q], keys + at, key_len[q]);
    }
    int64_t steps = 0;
    Legal L;
    Act a;
    while (g->phase != PH_OVER && steps < max_actions) {
        int32_t seat = g->current;
        legal(g, &L);
        int bad = 0;
        if (bots[seat] == BOT_RANDOM)
            bad = !L.total || nth_action(g, &L, mt_below(&twisters[seat], L.total), &a);
        else if (bots[seat] == BOT_GREEDY)
            bad = greedy_bot(g, &L, &twisters[seat], &a) != 0;
        else
            bad = ladder_bot(g, &L, bots[seat] == BOT_SAVER, &twisters[seat], &a) != 0;
        if (!bad && record) {
            if (steps >= rec_cap) {
                steps = -2;
                break;
            }
            int32_t *out = record + steps * REC_WORDS;
            memset(out, 0, REC_WORDS * sizeof(int32_t));
            out[0] = a.kind;
            out[1] = a.arg;
            if (a.kind == A_KEEP) {
                const Player *P = &g->p[seat];
                out[1] = 0;
                for (int32_t i = 0; i < P->noffer; i++)
                    if (a.arg >> i & 1) out[2 + out[1]++] = P->offer[i];
            } else {
                memcpy(out + 2, a.pay, sizeof a.pay);
            }
        }
        if (bad || fg_apply(g, &a)) {
            steps = -1;
            break;
        }
        steps++;
    }
    free(twisters);
    return steps;
}

/* ------------------------------------------------------------------ playtests (playtest/) */

enum { POLICY_UNIFORM, POLICY_PLAYOUT };
#define LOG_FIELDS 5 /* seat, phase before, action kind, its argument, route claimed or -1 */

/* A game to the end (or max_steps actions) with a policy per seat: POLICY_UNIFORM takes
 * legal[below(n)] from that seat's own SplitMix64 stream rngs[seat] (updated), POLICY_PLAYOUT
 * the greedy playout policy (Playout, as in fg_greedy_playout). Each action is logged as
 * LOG_FIELDS ints (log holds max_steps * LOG_FIELDS). Returns the actions applied; -1 when a
 * policy's move is refused (never; checked), -2 without memory, -3 for an unknown policy. */
FG_API int64_t fg_policy_playout(Game *g, const int32_t *policy, uint64_t *rngs,
                                 int64_t max_steps, int32_t *log) {
    Targets *T = malloc(sizeof(Targets));
    if (!T) return -2;
    for (int q = 0; q < MAXP; q++) T->traced[q] = -1;
    int64_t steps = 0;
    Legal L;
    Act a;
    while (g->phase != PH_OVER && steps < max_steps) {
        int32_t seat = g->current, phase = g->phase;
        if (policy[seat] == POLICY_UNIFORM) {
            legal(g, &L);
            if (!L.total) break;
            if (nth_action(g, &L, (int64_t)below(&rngs[seat], (uint64_t)L.total), &a)) break;
        } else if (policy[seat] == POLICY_PLAYOUT) {
            greedy_choose(g, T, &a);
        } else {
            steps = -3;
            break;
        }
        int32_t route = a.kind == A_CLAIM ? a.arg : a.kind == A_PAY ? g->tun_route : -1;
        if (fg_apply(g, &a)) {
            steps = -1;
            break;
        }
        int32_t *o = log + steps * LOG_FIELDS;
        o[0] = seat;
        o[1] = phase;
        o[2] = a.kind;
        o[3] = a.arg;
        o[4] = route >= 0 && g->owners[route] == seat ? route : -1;
        steps++;
    }
    free(T);
    return steps;
}
