/* The engine of the compiled core: the generator, payments, the card table, legal actions, the
 * checks and the reducer, and the exported functions that make, deal, load, dump, list, apply
 * and play out a game. Each part mirrors the Python module its heading names (under
 * src/ttr_europe/); core.h holds the state's layout, engine.h what the other files use.
 */
#include "engine.h"

/* ------------------------------------------------------------------ generator (_rng.py) */

static uint64_t next_u64(uint64_t *s) {
    *s += 0x9E3779B97F4A7C15ULL;
    uint64_t z = *s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

uint64_t below(uint64_t *s, uint64_t n) { return next_u64(s) % n; }

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
int32_t count_pay(int32_t colour, int32_t len, int32_t minl, const int32_t *hand) {
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
int nth_pay(int32_t colour, int32_t len, int32_t minl, const int32_t *hand, int32_t index,
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
int32_t pay_colour(const int32_t *pay) {
    int32_t found = LOCO;
    for (int32_t c = 0; c < LOCO; c++)
        if (pay[c]) {
            if (found != LOCO) return -2;
            found = c;
        }
    return found;
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

/* ----------------------------------------------------------------- the card table (_dealing.py) */

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

/* ------------------------------------------------------------------ legal actions (legal.py) */

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

static void head_act(Legal *L, int32_t kind, int32_t arg) {
    L->head_kind[L->nhead] = kind;
    L->head_arg[L->nhead++] = arg;
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

static int64_t binom(int32_t n, int32_t k) {
    if (k < 0 || k > n) return 0;
    int64_t c = 1;
    for (int32_t i = 1; i <= k; i++) c = c * (n - k + i) / i;
    return c;
}

/* keep_walk_all without the list. When no choice can break the long-ticket limit (none is
 * set, or the offer holds no more long tickets than it allows: always but for special
 * variants) the choices are all combinations, counted and unranked without walking them. */
int64_t keep_walk(const Game *g, int64_t target, int32_t *mask_out) {
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

/* keep_walk_all: declared, with what it does, in engine.h. */
int64_t keep_walk_all(const Game *g, int64_t target, int32_t *mask_out, int32_t *all) {
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

void legal(const Game *g, Legal *L) {
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

int nth_action(const Game *g, const Legal *L, int64_t i, Act *out) {
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

/* ------------------------------------------------------------------ checks (rules.py, _check_*) */

int check(const Game *g, const Act *a) {
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

/* ---------------------------------------------------------------- the reducer (rules.py, apply) */

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

/* rl/memory.py's PublicHands.after: face-up cards taken become known, payments spend known
 * cards first, a withdrawn tunnel's cards come back known. */
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

void step(Game *g, const Act *a) {
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
#define FG_SOURCE_HASH 0 /* build.py passes the sources' hash: a stale build is refused */
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

/* The position as the flat layout core.h states (read back by fg_load). */
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

/* The inverse of fg_dump into g, checking every value: 0, or -1 (g is then half loaded). */
static int load_into(Game *g, const int64_t *v, int64_t n) {
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

/* fg_dump's position, checked, into g: 0, or -1 with g unchanged (a refused position is read
 * into a scratch game, so a caller that goes on with g never meets a half-loaded one). */
FG_API int fg_load(Game *g, const int64_t *v, int64_t n) {
    Game *t = malloc(sizeof(Game));
    if (!t) return -1;
    t->R = g->R;
    int code = load_into(t, v, n);
    if (!code) memcpy(g, t, sizeof(Game));
    free(t);
    return code;
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
