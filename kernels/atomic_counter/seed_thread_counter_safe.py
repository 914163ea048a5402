# The seed's thread_counter_safe, unchanged: TP 3.1 + TP 3.2 (French), 000_945c5bbc964fcfb4.txt:1937.
# experiments: tp32-atomic-counter
# exercise: atomic_counter
# arguments: counter
# It takes no n, as in the seed: every thread adds one, so the count is the launch's threads, which the experiment
# makes n (64 blocks of 64 = 4096). The race beside it in the seed (thread_counter_race_condition) is cuda-race.
from numba import cuda

@cuda.jit
def thread_counter_safe(global_counter):
    cuda.atomic.add(global_counter, 0, 1)  # Safely add 1 to offset 0 in global_counter array
