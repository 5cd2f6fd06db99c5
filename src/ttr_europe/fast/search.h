/* The search of the compiled core (search.c): the walk of players/mcts.py's CoreMctsBot, the
 * greedy policy (policies.h) playing every seat but the searching one, and the moves searched
 * given as keys, one int64 a move, the same in every world.
 */
#ifndef TTR_FAST_SEARCH_H
#define TTR_FAST_SEARCH_H

#include "policies.h"

/* A move key's fields (act_key in search.c says the whole key; fast/__init__.py reads it): the
 * bits of a move's argument, and the most tickets a keep's key names. */
#define KEY_ARG_BITS 20
#define KEY_KEPT 7

/* ------------------------------------------------------------------ exported (search.c) */

FG_API int64_t fg_search_step(Game *g, Targets *T, int32_t fresh, int32_t seat, int64_t *keys,
                              int64_t cap, int64_t max_steps);
FG_API Targets *fg_targets_new(void);
FG_API void fg_targets_free(Targets *T);
FG_API int fg_apply_key(Game *g, int64_t key);

#endif
