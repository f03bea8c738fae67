/** Recursive permutation enumeration with swaps (8! = 40320 leaves). */
public class RecPermutations {
    static long visit(int[] a, int k) {
        if (k == a.length) return a[0] * 7 + a[a.length - 1];
        long s = 0;
        for (int i = k; i < a.length; i++) {
            int t = a[k]; a[k] = a[i]; a[i] = t;
            s += visit(a, k + 1);
            t = a[k]; a[k] = a[i]; a[i] = t;
        }
        return s;
    }
    public static long run() { return visit(new int[] { 1, 2, 3, 4, 5, 6, 7, 8 }, 0); }
    public static void main(String[] args) { System.out.println(run()); }
}
