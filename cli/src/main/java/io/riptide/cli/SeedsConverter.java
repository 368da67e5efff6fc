package io.riptide.cli;

import io.riptide.simulator.seeds.SeedList;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads {@code --seeds 1-5} or {@code 1,2,3}; a bad list is a usage error saying what is wrong. */
final class SeedsConverter implements ITypeConverter<SeedList> {
    @Override
    public SeedList convert(String value) {
        try {
            return SeedList.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
