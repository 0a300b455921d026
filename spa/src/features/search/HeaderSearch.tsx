import { Combobox, Group, Loader, Text, TextInput, useCombobox } from "@mantine/core";
import { IconSearch } from "@tabler/icons-react";
import { useMemo, useState } from "react";
import { useNavigate } from "react-router";
import { filterSearch, useSearchIndex, type SearchKind } from "./api";

const GROUPS: { kind: SearchKind; label: string }[] = [
  { kind: "course", label: "Courses" },
  { kind: "unit", label: "Units of Competency" },
  { kind: "teacher", label: "Teachers" },
  { kind: "blockGroup", label: "Block Groups" },
  { kind: "room", label: "Rooms" },
];

/** The header search: courses, units, teachers and block groups as you type; Enter or click opens the record. */
export function HeaderSearch({ fullWidth = false, onOpen }: { fullWidth?: boolean; onOpen?: () => void } = {}) {
  const [query, setQuery] = useState("");
  const [touched, setTouched] = useState(false);
  const navigate = useNavigate();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const index = useSearchIndex(touched);
  const results = useMemo(() => filterSearch(index.data ?? [], query), [index.data, query]);

  const open = (path: string) => {
    setQuery("");
    combobox.closeDropdown();
    navigate(path);
    onOpen?.();
  };

  return (
    <Combobox store={combobox} onOptionSubmit={open} withinPortal width={fullWidth ? "target" : 440} position={fullWidth ? "bottom" : "bottom-end"}>
      <Combobox.Target>
        <TextInput
          w={fullWidth ? "100%" : { base: 180, md: 320 }}
          placeholder="Search courses, teachers, units..."
          aria-label="Search courses, teachers, units"
          leftSection={<IconSearch size={16} aria-hidden />}
          rightSection={index.isFetching ? <Loader size={14} /> : null}
          value={query}
          onFocus={() => {
            setTouched(true);
            if (query) combobox.openDropdown();
          }}
          onBlur={() => combobox.closeDropdown()}
          onChange={(event) => {
            setTouched(true);
            setQuery(event.currentTarget.value);
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
          }}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={!query.trim()}>
        <Combobox.Options mah={360} style={{ overflowY: "auto" }} aria-label="Search results">
          {index.isLoading ? (
            <Combobox.Empty>Searching...</Combobox.Empty>
          ) : results.length === 0 ? (
            <Combobox.Empty>No results found</Combobox.Empty>
          ) : (
            GROUPS.map((group) => {
              const items = results.filter((r) => r.kind === group.kind);
              if (items.length === 0) return null;
              return (
                <Combobox.Group label={group.label} key={group.kind}>
                  {items.map((item) => (
                    <Combobox.Option value={item.path} key={`${item.kind}-${item.id}`}>
                      <Group gap="xs" wrap="nowrap">
                        <Text size="sm" fw={500}>
                          {item.label}
                        </Text>
                        {item.detail && item.detail !== item.label ? (
                          <Text size="xs" c="dimmed" truncate>
                            {item.detail}
                          </Text>
                        ) : null}
                      </Group>
                    </Combobox.Option>
                  ))}
                </Combobox.Group>
              );
            })
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
