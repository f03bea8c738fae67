/* The JUnit example's exercise (examples/junit/README.md): the sum of the
 * decimal digits of n >= 0. DigitsTest holds its tests; the grading server
 * scores Digits.digitSum while those tests run. */
public class Digits {
    public static int digitSum(int n) {
        int s = 0;
        while (n > 0) {
            s += n % 10;
            n /= 10;
        }
        return s;
    }
}
