# ESP32 boot: runs before main.py. Keep it small: a broken main.py must still leave the REPL reachable.
import gc

gc.collect()
