/** StringBuilder: appending ints, chars and strings, then scanning the result. */
public class StrBuilder {
    public static long run() {
        long s = 0;
        for (int round = 0; round < 40; round++) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 400; i++) sb.append(i * round).append(',').append("x");
            String t = sb.toString();
            for (int i = 0; i < t.length(); i += 3) s += t.charAt(i);
        }
        return s;
    }
    public static void main(String[] args) { System.out.println(run()); }
}
