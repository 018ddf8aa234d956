/*
 * bench/changroberts.pml rewritten the way SPIN's partial-order reduction
 * needs it (issue 10): participant and decided are local to each node, and
 * each node declares its input channel exclusive-receive (xr) and its output
 * channel exclusive-send (xs). Same state graph, so without reduction SPIN
 * stores mc's full counts (2206 for N = 6, 1243826 for N = 10); with it,
 * 585, 3895 and 23797 states for N = 6, 8, 10 (depth-first, 6.5.2):
 *
 *   spin -DN=10 -a changroberts_xr.pml && gcc -O2 -DSAFETY -o pan pan.c && ./pan -m100000
 *
 * add -DBFS to gcc for SPIN's breadth-first search, -DNOREDUCE to turn the
 * reduction off.
 */
#ifndef N
#define N 5
#endif
mtype = { elect, done };
chan ch[N] = [N+1] of { mtype, byte };

active [N] proctype node() {
  byte i = _pid; byte me = N - _pid;
  bool participant; byte decided;   /* 0 undecided, 1 leader, 2 lost */
  mtype t; byte j;
  chan in = ch[i]; chan out = ch[(i+1)%N];
  xr in; xs out;
end:
  do
  :: d_step { !participant && decided == 0 -> participant = true; out ! elect, me }
  :: d_step { nempty(in) -> in ? t, j;
       if
       :: t == elect && j > me -> participant = true; out ! elect, j
       :: t == elect && j < me && !participant -> participant = true; out ! elect, me
       :: t == elect && j < me && participant -> skip
       :: t == elect && j == me -> decided = 1; out ! done, me
       :: t == done && j != me -> decided = 2; out ! done, j
       :: t == done && j == me -> skip
       fi;
       t = 0; j = 0 }
  od
}
