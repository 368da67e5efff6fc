package io.riptide.simulator.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * The one rule by which reports print a double: six significant digits, half-even rounding, no
 * exponent, no trailing zeros. Same double, same text, on every machine and every run.
 */
public final class NumberText {
    /** Significant digits kept. */
    public static final int SIGNIFICANT_DIGITS = 6;
    private static final MathContext ROUNDING = new MathContext(SIGNIFICANT_DIGITS, RoundingMode.HALF_EVEN);

    private NumberText() {
    }

    /** {@code value} rounded to six significant digits as a plain decimal; throws for NaN and infinities. */
    public static BigDecimal round(double value) {
        return round(value, ROUNDING);
    }

    /** {@code value} as text with {@code digits} significant digits, for labels; finite values only. */
    public static String format(double value, int digits) {
        return round(value, new MathContext(digits, RoundingMode.HALF_EVEN)).toPlainString();
    }

    private static BigDecimal round(double value, MathContext rounding) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("not a finite number: " + value);
        }
        if (value == 0) {
            // Also folds -0.0 into 0, which would otherwise print differently.
            return BigDecimal.ZERO;
        }
        BigDecimal rounded = new BigDecimal(value).round(rounding).stripTrailingZeros();
        return rounded.scale() < 0 ? rounded.setScale(0) : rounded;
    }

    /** {@code value} as text by the rule; NaN and infinities as {@code NaN}, {@code Infinity}, {@code -Infinity}. */
    public static String format(double value) {
        return Double.isFinite(value) ? round(value).toPlainString() : Double.toString(value);
    }
}
