package dev.makeroom;

import dev.makeroom.process.InfoFlags;
import dev.makeroom.process.OutOfMemoryExit;
import dev.makeroom.why.WhyCommand;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationExcludeFilter;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.context.TypeExcludeFilter;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;

/**
 * makeroom's entry point. Like {@code @SpringBootApplication}, but management-context
 * configurations (the debug API) are left to the management context on its own port.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@ConfigurationPropertiesScan
@ComponentScan(excludeFilters = {
        @ComponentScan.Filter(type = FilterType.CUSTOM, classes = TypeExcludeFilter.class),
        @ComponentScan.Filter(type = FilterType.CUSTOM, classes = AutoConfigurationExcludeFilter.class),
        @ComponentScan.Filter(type = FilterType.ANNOTATION, classes = ManagementContextConfiguration.class)})
public class MakeroomApplication {
    public static void main(String[] args) {
        OutOfMemoryExit.install();
        if (InfoFlags.asked(args)) { // --help, --version: said, and nothing starts
            System.exit(InfoFlags.answer(args, System.out));
        }
        if (WhyCommand.asked(args)) { // the offline "why": one decision printed, no server
            System.exit(WhyCommand.run(args, System.out));
        }
        SpringApplication.run(MakeroomApplication.class, args);
    }
}
