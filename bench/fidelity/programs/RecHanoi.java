/** Towers of Hanoi with an explicit move counter in an array. */
public class RecHanoi {
    static void move(int n, int from, int to, int via, long[] count) {
        if (n == 0) return;
        move(n - 1, from, via, to, count);
        count[from * 3 + to]++;
        move(n - 1, via, to, from, count);
    }
    public static long run() {
        long[] c = new long[9];
        move(16, 0, 2, 1, c);
        return c[2] + c[1] * 3 + c[5] * 7;
    }
    public static void main(String[] args) { System.out.println(run()); }
}
