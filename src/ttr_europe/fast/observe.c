/* Observations, the action codec and batch stepping in the compiled core, for the learning
 * environments (envs/): a seat's observation as rl/encoding.py's Encoder writes it, the legal
 * codes of codec.py's ActionCodec as a mask, and whole batches of games stepped by code
 * (envs/batch.py).
 */
#include "engine.h"

/* ------------------------------------------------------------- the observation (rl/encoding.py) */

/* Where rl/encoding.py's parts start (Layout.slices), in this order, then its size, the end of
 * its dense part, the layout's most players, ticket count, largest offer and face-up slots
 * (a game loaded with more than the layout holds writes only what fits). */
enum { O_HAND, O_DISCARD, O_PILE, O_DECK, O_BOX, O_TRAINS, O_STATIONS, O_SCORES, O_HAND_SIZES,
       O_TICKET_COUNTS, O_OFFER_COUNTS, O_PUBLIC, O_LAID, O_REVEALED, O_EXTRA, O_LAST_ROUND,
       O_FINAL, O_PASSES, O_PLAYER_COUNT, O_PHASE, O_CURRENT, O_FIRST, O_ROW, O_OWNERS,
       O_CLOSED, O_STATION_OWNERS, O_TICKETS, O_OFFER, O_TUNNEL_ROUTE, O_TUNNEL_COLOUR,
       O_SIZE, O_DENSE, O_MAXP, O_NTICKETS, O_MAX_OFFER, O_FACE_UP, O_FIELDS };

/* The observation of seat (Encoder.encode with the game's PublicHands, rl/memory.py). */
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

/* ------------------------------------------------------------------ the action codec (codec.py) */

/* The codec (ActionCodec): face-up slots, blind, tickets, pass, withdraw, keep subsets,
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

/* The legal-action mask over the codec's codes (ActionCodec.mask_bytes). */
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

/* The action of a code (ActionCodec.decode), checked: 0, or -1 when it is not legal here. */
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

/* ------------------------------------------------------------------ the exported functions */

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

/* One step of each of n games (envs/batch.py's BatchGames): the code of each game's current
 * seat is applied; a finished game writes its returns (1/k to each of k winners, as
 * scoring.returns), is dealt again with the next seed (*next_seed, counted up; with no
 * next_seed it is left over for the caller to deal) and flagged in done (1); then every game's
 * observation (of the seat to act) and mask are written. A finished game whose longest trail
 * is left to paths.py is flagged 2 and left over, unobserved, for the caller. Returns -1 - i
 * when game i's code is not legal (games before i have stepped), else 0. */
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
