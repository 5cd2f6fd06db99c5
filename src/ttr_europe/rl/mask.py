"""The legal-action mask as a numpy bool array over the ``ActionCodec`` codes."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .._guards import not_a_state
from ..codec import ActionCodec, codec_for
from ..errors import BadArgumentError, kind_of
from ..state import GameState

Mask = npt.NDArray[np.bool_]


def action_mask(state: GameState, codec: ActionCodec | None = None) -> Mask:
    """``mask[code]`` is True exactly when the action of ``code`` is legal in ``state``.

    ``codec`` defaults to the shared codec of the state's map and variant. The array is a
    view of the codec's fresh byte mask (one byte per code), so it costs no copy.
    """
    if type(state) is not GameState:
        raise not_a_state(state, "action_mask")
    if codec is None:
        codec = codec_for(state.rules.map, state.rules.variant.id)
    elif not isinstance(codec, ActionCodec):
        raise BadArgumentError(
            f"action_mask: codec must be an ActionCodec or None, got {kind_of(codec)}",
            argument="codec",
        )
    return np.frombuffer(codec.mask_bytes(state), np.bool_)
