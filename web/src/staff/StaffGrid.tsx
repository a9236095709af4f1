import {
  CellStyleModule,
  ColumnAutoSizeModule,
  InfiniteRowModelModule,
  LocaleModule,
  ModuleRegistry,
  PaginationModule,
  RowStyleModule,
  ValidationModule,
  type ColDef,
  type GetLocaleTextParams,
  type IDatasource,
  type Module,
  type RowClickedEvent,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { gridTheme, ROW_HEIGHT } from '../projects/ProjectGrid';

// Staff tables have many columns: a little less room around each cell.
const staffTheme = gridTheme.withParams({ cellHorizontalPadding: 10 });

const modules: Module[] = [InfiniteRowModelModule, PaginationModule, LocaleModule, ColumnAutoSizeModule, RowStyleModule, CellStyleModule];
if (import.meta.env.DEV) modules.push(ValidationModule);
ModuleRegistry.registerModules(modules);

export interface PageRequest {
  offset: number;
  limit: number;
  /** The column sorted by (its colId), if any. */
  sort?: { column: string; desc: boolean };
}

interface StaffGridProps<T> {
  columns: ColDef<T>[];
  /** One page from the server; a new function (new filter) starts again at the first page. */
  fetchPage: (request: PageRequest) => Promise<{ rows: T[]; total: number }>;
  rowId: (row: T) => string;
  pageSize?: number;
  label: string;
  onOpen?: (row: T) => void;
  onError?: (error: unknown) => void;
}

/**
 * A table paged on the server (ag-grid's infinite row model): the grid asks
 * for the rows of the page shown, sorted as the header says, and is told the
 * total the filter matches.
 */
export function StaffGrid<T>({ columns, fetchPage, rowId, pageSize = 25, label, onOpen, onError }: StaffGridProps<T>) {
  const { t, i18n } = useTranslation();
  const localeText = (params: GetLocaleTextParams) => {
    const key = `grid.${params.key}`;
    return i18n.exists(key) ? (t as unknown as (k: string) => string)(key) : params.defaultValue;
  };
  const datasource = useMemo<IDatasource>(
    () => ({
      getRows(params) {
        const sorted = params.sortModel[0];
        fetchPage({
          offset: params.startRow,
          limit: params.endRow - params.startRow,
          sort: sorted ? { column: sorted.colId, desc: sorted.sort === 'desc' } : undefined,
        }).then(
          (page) => params.successCallback(page.rows, page.total),
          (error: unknown) => {
            params.failCallback();
            onError?.(error);
          },
        );
      },
    }),
    [fetchPage, onError],
  );
  return (
    <div className="project-table staff-grid" data-label={label} style={{ ['--table-min-rows-height' as string]: `${ROW_HEIGHT * 10}px` }}>
      <AgGridReact<T>
        key={i18n.language}
        theme={staffTheme}
        rowModelType="infinite"
        datasource={datasource}
        cacheBlockSize={pageSize}
        maxBlocksInCache={4}
        pagination
        paginationPageSize={pageSize}
        paginationPageSizeSelector={false}
        columnDefs={columns}
        defaultColDef={{ sortable: false, resizable: true, wrapHeaderText: true, autoHeaderHeight: true }}
        getRowId={({ data }) => rowId(data)}
        getLocaleText={localeText}
        domLayout="autoHeight"
        ensureDomOrder
        rowClass={onOpen ? 'project-table__row--open' : undefined}
        onRowClicked={(event: RowClickedEvent<T>) => {
          const target = event.event?.target as HTMLElement | null;
          if (target?.closest('button, select, a, input')) return;
          if (event.data) onOpen?.(event.data);
        }}
      />
    </div>
  );
}
