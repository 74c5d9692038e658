package dev.makeroom;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class MakeroomApplication {
    public static void main(String[] args) {
        SpringApplication.run(MakeroomApplication.class, args);
    }
}
