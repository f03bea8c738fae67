/* The JUnit 5 tests of the example exercise: three calls of
 * Digits.digitSum, in two tests. */
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DigitsTest {
    @Test
    void severalDigits() {
        assertEquals(6, Digits.digitSum(123));
        assertEquals(9, Digits.digitSum(9));
    }

    @Test
    void zero() {
        assertEquals(0, Digits.digitSum(0));
    }
}
