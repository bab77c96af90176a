"""How the build runs its work, apart from what the work is: how many
processes it may use (cpus.py), per-record work handed to a pool of
processes once it proves slow (pool.py), a generator run in a process of its
own beside the one that asks for its items (background.py), what a
generator returned once its items are taken (generator_result.py), and work
on untrusted input stopped once it has taken its budget of CPU time
(budget.py)."""
