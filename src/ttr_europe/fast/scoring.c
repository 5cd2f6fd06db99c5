/* Final scoring in the compiled core (scoring.py), with the longest trail's search (paths.py):
 * every seat's figures at the game's end, SC_FIELDS a seat (engine.h).
 */
#include "engine.h"

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
