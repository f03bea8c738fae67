/** String concatenation with + (invokedynamic) in a loop, and hashing the results. */
public class StrConcat {
    public static long run() {
        long s = 0;
        for (int i = 0; i < 5000; i++) {
            String t = "item" + i + ":" + (i * 31) + ';';
            s += t.hashCode() + t.length();
        }
        return s;
    }
    public static void main(String[] args) { System.out.println(run()); }
}
