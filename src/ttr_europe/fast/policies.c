/* The policies of the compiled core: the greedy playout of the search, the bots a simulation
 * plays, move for move as their Python counterparts do with the same random.Random streams, and
 * the playtests' seat policies. Each part mirrors the Python module its heading names (under
 * src/ttr_europe/); policies.h declares what the search uses.
 */
#include "policies.h"

/* ---------------------------------------------------------- the greedy policy (players/mcts.py) */

#define HOARD 12        /* a hand this large claims for points whatever the tickets say */
#define MORE_TICKETS 20 /* trains needed to draw tickets once the seat's own are connected */

/* players/_routing.py's shortest_path: Dijkstra with own routes free, free routes by length, others'
 * closed; the routes of the path found (all of them) in mask; 0 when the cities are not
 * joined. */
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
void targets(const Game *g, Targets *T, int32_t seat, uint64_t *wanted) {
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

/* players/mcts.py's cheapest_payment: fewest locomotives, then the colour held most; -1 if none
 * pays. */
int cheapest_payment(int32_t colour, int32_t len, int32_t ferry, const int32_t *hand,
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

int can_pay(int32_t colour, int32_t len, int32_t ferry, const int32_t *hand) {
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

/* Playout.keep: the fewest tickets allowed, the cheapest to connect (path trains less half
 * the points, each ticket; compared doubled, so in whole numbers). */
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

/* Playout.choose: the greedy policy's move for the seat to act. */
void greedy_choose(const Game *g, Targets *T, Act *a) {
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

/* ------------------------------------------------ the bots (players/bots.py, players/styles.py) */

/* Python's random.Random (MT19937, as CPython's _randommodule.c has it), for the generator a
 * driver hands each seat's bot (the seat's seed rule, _seeds.py): seeded from the words of the
 * integer that random.seed makes of the seed text (_seeds.py computes them, sha512 included). */
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

/* players/_routing.py's cheapest over the n payments listed for (colour, len, minl): fewest
 * locomotives, then the colour held most, the first listed among equals. */
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

/* players/bots.py's _longest_claim: the longest claimable route of mask (every claimable one
 * when NULL), the lowest index among equals, claimed with its cheapest listed payment; 0 if
 * none. */
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
 * first legal one. With by_points, AmbitiousBot._keep: the same, taken most points first. */
static int bot_keep(const Game *g, int by_points, Act *a) {
    const Player *P = &g->p[g->current];
    int32_t cost[MAXOFFER], order[MAXOFFER];
    if (by_points)
        for (int32_t i = 0; i < P->noffer; i++) cost[i] = -g->R->t_points[P->offer[i]];
    else
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

/* GreedyBot.choose (and AmbitiousBot's, by_points: only its ticket choice differs). 0, or -1
 * when it finds no move. */
static int greedy_bot(const Game *g, const Legal *L, int by_points, Twister *t, Act *a) {
    const Player *P = &g->p[g->current];
    Reading S;
    switch (g->phase) {
    case PH_INITIAL:
    case PH_CHOOSE:
        return bot_keep(g, by_points, a);
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

/* players/styles.py's SAVE_FOR: the shortest route a SaverBot claims with trains to spare. */
#define SAVE_FOR 3

/* players/styles.py's _draw: the first of slots (n of them) that may be drawn face up, else a
 * blind card, else any legal move but a station (any at all if only those), from the seat's
 * generator. */
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

/* players/styles.py's ClaimerBot and SaverBot: the fewest tickets (the first such choice
 * listed), the cheapest tunnel payment, the longest claim (of SAVE_FOR cars or more for a saver
 * with trains to spare) at a turn's start, else a draw (a saver's: face up, its two colours
 * held most, most first). 0, or -1 when it finds no move. */
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

/* ------------------------------------- one game by seat (sim/games.py and playtest/games.py) */

/* What each seat plays with: the bots' generators (one a seat, seeded with its key words), the
 * uniform seats' SplitMix64 streams, and the greedy playout's memory of its paths. */
typedef struct {
    Twister tw[MAXP];
    uint64_t *rngs;
    Targets T;
} Seats;

/* The move of the seat to act by its policy (a BOT_* or POLICY_* code). 0, or -1 when it finds
 * no move. */
static int seat_move(const Game *g, int32_t policy, Seats *S, Legal *L, Act *a) {
    int32_t seat = g->current;
    if (policy == POLICY_PLAYOUT) {
        greedy_choose(g, &S->T, a);
        return 0;
    }
    legal(g, L);
    if (!L->total) return -1;
    switch (policy) {
    case POLICY_UNIFORM:
        return nth_action(g, L, (int64_t)below(&S->rngs[seat], (uint64_t)L->total), a);
    case BOT_RANDOM:
        return nth_action(g, L, mt_below(&S->tw[seat], L->total), a);
    case BOT_GREEDY:
    case BOT_AMBITIOUS:
        return greedy_bot(g, L, policy == BOT_AMBITIOUS, &S->tw[seat], a);
    default:
        return ladder_bot(g, L, policy == BOT_SAVER, &S->tw[seat], a);
    }
}

/* A bot's action in REC_WORDS words (a kept ticket choice as its count and the tickets). */
static void note_action(const Game *g, const Act *a, int32_t *out) {
    memset(out, 0, REC_WORDS * sizeof(int32_t));
    out[0] = a->kind;
    out[1] = a->arg;
    if (a->kind == A_KEEP) {
        const Player *P = &g->p[g->current];
        out[1] = 0;
        for (int32_t i = 0; i < P->noffer; i++)
            if (a->arg >> i & 1) out[2 + out[1]++] = P->offer[i];
    } else {
        memcpy(out + 2, a->pay, sizeof a->pay);
    }
}

/* The one game loop of both entry points below: seat q moved by policy[q] until the game ends
 * or max_steps actions; a bot seat draws from a generator seeded with its key words (keys,
 * key_len[q] words each, one seat after the other; none for the other policies), a uniform
 * seat from rngs[seat] (updated). With record, each action in REC_WORDS words (at most rec_cap
 * of them); with log, in LOG_FIELDS ints (room for max_steps). Returns the actions applied;
 * -1 when a seat found no move or its move was refused (never; checked), -2 when rec_cap was
 * too small, -3 for an unknown policy or a bot without key words, -4 without memory. */
static int64_t play_seats(Game *g, const int32_t *policy, uint64_t *rngs, const uint32_t *keys,
                          const int32_t *key_len, int64_t max_steps, int32_t *record,
                          int64_t rec_cap, int32_t *log) {
    const Rules *R = g->R;
    for (int32_t q = 0; q < R->players; q++)
        if (policy[q] < 0 || policy[q] >= POLICY_KINDS ||
            (policy[q] < BOT_KINDS && (!keys || key_len[q] < 1)) ||
            (policy[q] == POLICY_UNIFORM && !rngs))
            return -3;
    Seats *S = malloc(sizeof(Seats));
    if (!S) return -4;
    S->rngs = rngs;
    for (int q = 0; q < MAXP; q++) S->T.traced[q] = -1;
    for (int32_t q = 0, at = 0; q < R->players; at += key_len ? key_len[q] : 0, q++)
        if (policy[q] < BOT_KINDS) mt_seed_key(&S->tw[q], keys + at, key_len[q]);
    int64_t steps = 0;
    Legal L;
    Act a;
    while (g->phase != PH_OVER && steps < max_steps) {
        int32_t seat = g->current, phase = g->phase;
        int bad = seat_move(g, policy[seat], S, &L, &a) != 0;
        if (!bad && record) {
            if (steps >= rec_cap) {
                steps = -2;
                break;
            }
            note_action(g, &a, record + steps * REC_WORDS);
        }
        int32_t route = a.kind == A_CLAIM ? a.arg : a.kind == A_PAY ? g->tun_route : -1;
        if (bad || fg_apply(g, &a)) {
            steps = -1;
            break;
        }
        if (log) {
            int32_t *o = log + steps * LOG_FIELDS;
            o[0] = seat;
            o[1] = phase;
            o[2] = a.kind;
            o[3] = a.arg;
            o[4] = route >= 0 && g->owners[route] == seat ? route : -1;
        }
        steps++;
    }
    free(S);
    return steps;
}

/* What sim/games.py's play_game plays when every seat's bot is one of the core's: seat q's bot
 * is bots[q] (BOT_*), drawing from its own generator seeded with its key words, until the game
 * ends or max_actions actions (the loop's cap), each action recorded when record is given
 * (play_seats: its answers). */
FG_API int64_t fg_play_bots(Game *g, const int32_t *bots, const uint32_t *keys,
                            const int32_t *key_len, int64_t max_actions, int32_t *record,
                            int64_t rec_cap) {
    for (int32_t q = 0; q < g->R->players; q++)
        if (bots[q] < 0 || bots[q] >= BOT_KINDS) return -3;
    return play_seats(g, bots, NULL, keys, key_len, max_actions, record, rec_cap, NULL);
}

/* A playtest game (playtest/games.py's CORE_POLICIES and the core's bots) to the end or
 * max_steps actions, each action logged as LOG_FIELDS ints (log holds max_steps *
 * LOG_FIELDS): POLICY_UNIFORM takes legal[below(n)] from that seat's SplitMix64 stream,
 * POLICY_PLAYOUT the greedy playout policy (Playout, as in fg_greedy_playout), a BOT_* seat
 * its bot with its generator seeded from its key words (play_seats: its answers). */
FG_API int64_t fg_policy_playout(Game *g, const int32_t *policy, uint64_t *rngs,
                                 const uint32_t *keys, const int32_t *key_len, int64_t max_steps,
                                 int32_t *log) {
    return play_seats(g, policy, rngs, keys, key_len, max_steps, NULL, 0, log);
}
