# The seed's contador_global_atomic, unchanged: the Spanish notes, 001_88843509cc7ed521.txt:554.
# experiments: es-atomic-counter-4x128
# exercise: atomic_counter
# arguments: counter
# It takes no n, as in the seed: every thread adds one, so the count is the launch's threads, which the experiment
# makes n (4 blocks of 128 = 512). Its idx is unused, as in the seed.
from numba import cuda

@cuda.jit
def contador_global_atomic(counter):
    idx = cuda.grid(1)  # √çndice global del hilo
    cuda.atomic.add(counter, 0, 1)  # ‚úÖ Operaci√≥n at√≥mica, sin race condition
