/* The compiled core of ttr_europe: the same game as the pure-Python engine on a compact mutable
 * state, for whole playouts and bulk stepping (docs/fast.md).
 *
 * This header states once what every part of the core shares: the limits, the state's layout
 * (Rules, Player, Game), an action (Act) and the codes of phases, actions and tie-breaks. The
 * parts, each with its header, and the Python modules each mirrors (paths under src/ttr_europe/):
 *
 *   engine.h    engine.c    the generator, payments, card table, legal actions, checks and
 *                           reducer, and the exported game functions (_rng.py, _payments.py,
 *                           _dealing.py, legal.py, rules.py, rl/memory.py)
 *               scoring.c   final scoring (scoring.py, paths.py)
 *               observe.c   observations, the action codec and masks, batch stepping
 *                           (rl/encoding.py, codec.py, envs/batch.py)
 *   policies.h  policies.c  the greedy playout, the bots and the playtests' policies
 *                           (players/mcts.py, players/_routing.py, players/bots.py,
 *                           players/styles.py, playtest/games.py)
 *   search.h    search.c    the search's walk (players/mcts.py)
 *
 * The pure-Python engine is the reference; every function of the core mirrors one there and the
 * differential tests (tests/fast/test_fast.py) hold the two together. fast/_binding.py is the
 * one caller: it names each exported function (FG_API) with its C signature (_SIGNATURES). Map
 * data arrive from the loaded Map as an int64 array (fg_rules_new); positions travel both ways
 * as int64 arrays (fg_load/fg_dump). Every index read from outside is checked on the way in, so
 * a hostile position or action gets an error code, never an out-of-bounds access.
 */
#ifndef TTR_FAST_CORE_H
#define TTR_FAST_CORE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The functions fast/_binding.py calls: a Windows DLL exports only these, and gcc and clang
 * export these alone too, since every other function is static or FG_HIDDEN. */
#if defined(_WIN32)
#define FG_API __declspec(dllexport)
#elif defined(__GNUC__)
#define FG_API __attribute__((visibility("default")))
#else
#define FG_API
#endif

/* The functions one file of the core calls in another: linked within the library, never
 * exported from it (a Windows DLL exports nothing without FG_API). */
#if defined(__GNUC__) && !defined(_WIN32)
#define FG_HIDDEN __attribute__((visibility("hidden")))
#else
#define FG_HIDDEN
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

typedef struct {
    int32_t kind, arg, pay[KINDS];
} Act;

/* The map's tie-breaks after the total (R49, R50), as fast/__init__.py codes them. */
enum { TB_COMPLETED = 1, TB_FEWEST_STATIONS, TB_BONUS_CARD, TB_PATH };

/* The map and variant, from the flat layout fast/__init__.py writes (_rules_array) and
 * fg_rules_new reads, with the tables derived from it. */
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

/* A position. As a flat int64 array (fg_dump writes it, fg_load reads it back, checking every
 * value; fast/__init__.py's _state_array and _from_array are the same on the Python side):
 *   phase, current, first, rng (its 64 bits as a signed word), final_turns, passes,
 *   nrow, row[nrow], discard[KINDS], the cards left in the pile and those cards (top first),
 *   ndeck, deck[ndeck], nbox, box[nbox], owners[nroutes], then each seat's closed[MAXW],
 *   then each seat's hand[KINDS], trains, score, nst, st[nst], ntk, tk[ntk], noffer,
 *   offer[noffer], then has_tunnel and, when it is 1, tun_route, tun_laid[KINDS], tun_nrev,
 *   tun_rev[tun_nrev], tun_colour, tun_extra.
 * open and known are not in it: fg_load counts open again, and known starts empty. */
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
    int32_t known[MAXP][KINDS]; /* rl/memory.py's PublicHands: cards each seat was seen to take */
} Game;

#endif
