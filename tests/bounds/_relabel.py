"""A model copied with other B_k labels (``LowFidelityModel.mismatch_bound_classes``), to compare the searches that
run once per label with the ones that run per arm."""

import numpy as np


def relabelled(model, labels):
    """A copy of ``model`` whose ``mismatch_bound_classes`` returns ``labels`` (None: the model gives no labels, so
    every arm is searched; all zeros: a wrong labelling when the arms' B_k differ)."""

    class Relabelled(type(model)):
        def mismatch_bound_classes(self):
            return None if labels is None else np.asarray(labels, dtype=np.int64)

    other = Relabelled.__new__(Relabelled)
    other.__dict__.update(model.__dict__)
    return other
