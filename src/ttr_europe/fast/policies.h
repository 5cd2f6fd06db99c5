/* The policies of the compiled core (policies.c): the greedy playout of the search
 * (players/mcts.py's Playout), the bots a simulation plays (players/bots.py's RandomBot and
 * GreedyBot, players/styles.py's ClaimerBot, SaverBot and AmbitiousBot) and the playtests' seat policies
 * (playtest/games.py). The search (search.c) plays with the greedy policy declared here.
 */
#ifndef TTR_FAST_POLICIES_H
#define TTR_FAST_POLICIES_H

#include "engine.h"

/* The bots fg_play_bots plays, as fast/__init__.py's CORE_BOTS names them. */
enum { BOT_RANDOM, BOT_GREEDY, BOT_CLAIMER, BOT_SAVER, BOT_AMBITIOUS, BOT_KINDS };
#define REC_WORDS (2 + MAXOFFER) /* a recorded action: kind, arg, then a payment or tickets */

/* The seat policies of fg_policy_playout besides the bots (playtest/games.py's CORE_POLICIES),
 * numbered after them, and its log. */
enum { POLICY_UNIFORM = BOT_KINDS, POLICY_PLAYOUT, POLICY_KINDS };
#define LOG_FIELDS 5 /* seat, phase before, action kind, its argument, route claimed or -1 */

/* ------------------------------------------------------------------ exported (policies.c) */

FG_API int64_t fg_greedy_playout(Game *g, int64_t max_steps);
FG_API int64_t fg_play_bots(Game *g, const int32_t *bots, const uint32_t *keys,
                            const int32_t *key_len, int64_t max_actions, int32_t *record,
                            int64_t rec_cap);
FG_API int64_t fg_policy_playout(Game *g, const int32_t *policy, uint64_t *rngs,
                                 const uint32_t *keys, const int32_t *key_len, int64_t max_steps,
                                 int32_t *log);

/* ------------------------------------------------------------------ within the core */

/* The greedy policy's memory of each seat's ticket paths (Playout's). */
typedef struct {
    int32_t traced[MAXP];         /* the ticket count the paths were traced for; -1: none */
    uint64_t path[MAXP][MAXT][MAXW];
} Targets;

FG_HIDDEN void targets(const Game *g, Targets *T, int32_t seat, uint64_t *wanted);
FG_HIDDEN int cheapest_payment(int32_t colour, int32_t len, int32_t ferry, const int32_t *hand,
                               int32_t *pay);
FG_HIDDEN int can_pay(int32_t colour, int32_t len, int32_t ferry, const int32_t *hand);
FG_HIDDEN void greedy_choose(const Game *g, Targets *T, Act *a);

#endif
