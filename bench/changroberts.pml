/*
 * The canonical Chang–Roberts model of mc's changroberts spec (seed 002
 * §5.2), written for SPIN so that both checkers explore the same state
 * graph: node i has id N-i (the descending arrangement), one FIFO input
 * channel ch[i], and the variables participant and decided. Each action of
 * mc is one d_step here, the scratch variables t and j are cleared before a
 * step ends, and the nodes are active processes (no init process), so SPIN
 * stores exactly mc's states: 116, 489, 2206, 10371, 50152, 247693,
 * 1243826 and 6331175 for N = 4..11.
 *
 *   spin -DN=10 -a changroberts.pml && gcc -O2 -DNOREDUCE -DSAFETY -o pan pan.c && ./pan -m10000000
 */
#ifndef N
#define N 5
#endif
mtype = { elect, done };
chan ch[N] = [N+1] of { mtype, byte };
bool participant[N];
byte decided[N];   /* 0 undecided, 1 leader, 2 lost */

active [N] proctype node() {
  byte i = _pid; byte me = N - _pid;
  mtype t; byte j;
end:
  do
  :: d_step { !participant[i] && decided[i] == 0 -> participant[i] = true; ch[(i+1)%N] ! elect, me }
  :: d_step { nempty(ch[i]) -> ch[i] ? t, j;
       if
       :: t == elect && j > me -> participant[i] = true; ch[(i+1)%N] ! elect, j
       :: t == elect && j < me && !participant[i] -> participant[i] = true; ch[(i+1)%N] ! elect, me
       :: t == elect && j < me && participant[i] -> skip
       :: t == elect && j == me -> decided[i] = 1; ch[(i+1)%N] ! done, me
       :: t == done && j != me -> decided[i] = 2; ch[(i+1)%N] ! done, j
       :: t == done && j == me -> skip
       fi;
       t = 0; j = 0 }
  od
}
