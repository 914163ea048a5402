# The seed's suma_kernel, unchanged: the Spanish notes, 001_88843509cc7ed521.txt:335.
# experiments: es-suma-kernel es-suma-elementwise
# es-suma-elementwise: the section (001:297) sets the suma_elementwise ufunc against this kernel; --numba runs both.
# exercise: vector_add
from numba import cuda
import numpy as np

@cuda.jit
def suma_kernel(x, y, out):
    idx = cuda.grid(1)  # Obtiene el √≠ndice global del hilo
    if idx < x.size:  # Evita accesos fuera de rango
        out[idx] = x[idx] + y[idx]

