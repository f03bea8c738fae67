/** Naive recursive Fibonacci: almost nothing but calls. */
public class RecFib {
    static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
    public static long run() { return fib(21); }
    public static void main(String[] args) { System.out.println(run()); }
}
