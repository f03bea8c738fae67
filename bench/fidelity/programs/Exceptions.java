/** Parsing with exceptions for bad input: throw, catch and stack traces. */
public class Exceptions {
    static int parse(String s) {
        int v = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') throw new IllegalArgumentException("bad digit");
            v = v * 10 + (c - '0');
        }
        return v;
    }
    public static long run() {
        String[] in = { "123", "45x", "6789", "y", "1000", "22z2" };
        long s = 0;
        for (int i = 0; i < 3000; i++)
            try { s += parse(in[i % in.length]); } catch (IllegalArgumentException e) { s -= 1; }
        return s;
    }
    public static void main(String[] args) { System.out.println(run()); }
}
