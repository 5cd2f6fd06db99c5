/* The search's walk in the compiled core (players/mcts.py: CoreMctsBot's walk of
 * MctsBot._iterate, the moves of search_moves, the claims _PATH_CLAIMS and _OTHER_CLAIMS bound):
 * the greedy policy (policies.c) plays up to the searching seat's next decision, where the keys
 * of the moves searched are listed; a key is applied in any world where it is legal.
 */
#include "search.h"

/* A move as one int64, the same in every world (CoreMctsBot's tree is keyed by it, as
 * MctsBot's by the action): the kind in 4 bits, then for a keep the number of tickets kept in
 * 3 and each ticket kept in 8 (in the map's order: the same set, the same key), for any other
 * move the argument in 20 and 4 bits per card of the payment. -1 for a move with no key: more
 * than KEY_KEPT tickets kept, or a payment of 16 cards or more of a kind (no map has either). */
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

#define PATH_CLAIMS 3  /* _PATH_CLAIMS: the longest claims on the ticket paths searched */
#define OTHER_CLAIMS 2 /* _OTHER_CLAIMS: and off them */

/* Adds the key of a to keys (n of them so far, room for cap) unless it is there; the new n. */
static int64_t add_key(const Game *g, int64_t *keys, int64_t n, int64_t cap, const Act *a) {
    int64_t key = act_key(g, a);
    if (key < 0) return -1;
    for (int64_t i = 0; i < n && i < cap; i++)
        if (keys[i] == key) return n;
    if (n < cap) keys[n] = key;
    return n + 1;
}

/* search_moves at the seat's turn start or ticket choice, the policy's move first. */
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

/* One step of the search's walk (CoreMctsBot): the greedy policy plays every seat but
 * seat, and seat's second draws and tunnels, until seat is to start a turn or choose tickets
 * (or the game ends, or max_steps actions); then the keys of the moves searched there, the
 * policy's first (written while they fit in cap, counted in all). The policy remembers its
 * paths in T from one step to the next, as Playout does within an iteration; fresh
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

/* The paths the walk's policy remembers between steps (Playout's), for fg_search_step. */
FG_API Targets *fg_targets_new(void) { return malloc(sizeof(Targets)); }

FG_API void fg_targets_free(Targets *T) { free(T); }

/* Applies the move of a key (fg_search_step's); fg_apply's answer. */
FG_API int fg_apply_key(Game *g, int64_t key) {
    Act a;
    key_act(g, key, &a);
    return fg_apply(g, &a);
}
