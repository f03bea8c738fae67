/** Sieve of Eratosthenes on booleans up to 1.5 million. */
public class NumSieve {
    public static long run() {
        int n = 1500000;
        boolean[] comp = new boolean[n + 1];
        long count = 0;
        for (int i = 2; i <= n; i++) {
            if (comp[i]) continue;
            count++;
            for (long j = (long) i * i; j <= n; j += i) comp[(int) j] = true;
        }
        return count;
    }
    public static void main(String[] args) { System.out.println(run()); }
}
