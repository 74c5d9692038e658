package dev.makeroom.support.property;

import java.lang.reflect.Array;
import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.Map;

/**
 * A case's values as text: records, collections and maps opened up, and arrays shown by their elements
 * (a record's own toString shows an int[] as {@code [I@27cbfddf}); cut short past {@code most} chars.
 */
final class CaseText {

    private final StringBuilder text = new StringBuilder();
    private final int most;

    private CaseText(int most) {
        this.most = most;
    }

    static String of(Object value, int most) {
        CaseText text = new CaseText(most);
        text.append(value);
        return text.text.length() > most ? text.text.substring(0, most) + "… (cut)" : text.text.toString();
    }

    private void append(Object value) {
        if (text.length() > most) {
            return;
        }
        if (value != null && value.getClass().isArray()) {
            text.append('[');
            for (int i = 0, n = Array.getLength(value); i < n; i++) {
                text.append(i == 0 ? "" : ", ");
                append(Array.get(value, i));
            }
            text.append(']');
        } else if (value instanceof Record record) {
            text.append(record.getClass().getSimpleName()).append('[');
            RecordComponent[] components = record.getClass().getRecordComponents();
            for (int i = 0; i < components.length; i++) {
                text.append(i == 0 ? "" : ", ").append(components[i].getName()).append('=');
                try {
                    components[i].getAccessor().setAccessible(true);
                    append(components[i].getAccessor().invoke(record));
                } catch (ReflectiveOperationException | RuntimeException unreadable) {
                    text.append('?');
                }
            }
            text.append(']');
        } else if (value instanceof Collection<?> items) {
            text.append('[');
            int i = 0;
            for (Object item : items) {
                text.append(i++ == 0 ? "" : ", ");
                append(item);
            }
            text.append(']');
        } else if (value instanceof Map<?, ?> map) {
            text.append('{');
            int i = 0;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                text.append(i++ == 0 ? "" : ", ");
                append(entry.getKey());
                text.append('=');
                append(entry.getValue());
            }
            text.append('}');
        } else {
            text.append(value);
        }
    }
}
