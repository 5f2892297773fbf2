/* no_symbol.c — a shared object without the tessera_policy symbol
 * (tests/test_policy.c: loading it is refused before the run). */
int not_a_policy(void);
int not_a_policy(void) { return 0; }
