package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
)

// The writer runs its statements on the driver's connection, not through database/sql:
// database/sql converts the arguments of every call into a new []driver.NamedValue, and
// boxes them again, which at 20,000 moves/s was the process's largest allocator (issue
// 18). Here the writer builds its []driver.NamedValue in place, in a slice it reuses, and
// hands it to the driver's statement as it is. The connection stays the pinned *sql.Conn:
// each statement runs inside its Raw, the one place database/sql lets a caller use the
// driver's connection, which costs a lock and no allocation.

// rawStmt is a statement prepared on the driver's connection; modernc.org/sqlite's
// implement both interfaces, which prepare checks.
type rawStmt interface {
	driver.Stmt
	driver.StmtExecContext
	driver.StmtQueryContext
}

// rawConn runs rawStmts on a pinned connection. It is the writer goroutine's: the call in
// progress is kept in its fields, so that the callbacks given to Raw are method values
// made once, and a call allocates nothing of its own.
type rawConn struct {
	conn *sql.Conn
	ctx  context.Context

	// The call in progress.
	pctx   context.Context // of a prepare
	query  string
	st     rawStmt
	args   []driver.NamedValue
	result driver.Result
	vals   []driver.Value // the row a query read, until the next query

	prepareFn, execFn, queryFn, closeFn func(any) error
	closing                             []rawStmt
}

func newRawConn(ctx context.Context, conn *sql.Conn) *rawConn {
	c := &rawConn{conn: conn, ctx: ctx}
	c.prepareFn, c.execFn, c.queryFn, c.closeFn = c.doPrepare, c.doExec, c.doQuery, c.doClose
	return c
}

// prepare compiles query on the connection.
func (c *rawConn) prepare(ctx context.Context, query string) (rawStmt, error) {
	c.pctx, c.query = ctx, query
	err := c.conn.Raw(c.prepareFn)
	st := c.st
	c.pctx, c.query, c.st = nil, "", nil
	return st, err
}

func (c *rawConn) doPrepare(dc any) error {
	p, ok := dc.(driver.ConnPrepareContext)
	if !ok {
		return fmt.Errorf("the driver's connection %T cannot prepare with a context", dc)
	}
	st, err := p.PrepareContext(c.pctx, c.query)
	if err != nil {
		return err
	}
	raw, ok := st.(rawStmt)
	if !ok {
		st.Close()
		return fmt.Errorf("the driver's statement %T cannot run with a context", st)
	}
	c.st = raw
	return nil
}

// exec runs st with args (their ordinals set), which the driver does not keep.
func (c *rawConn) exec(st rawStmt, args []driver.NamedValue) (driver.Result, error) {
	c.st, c.args = st, args
	err := c.conn.Raw(c.execFn)
	res := c.result
	c.st, c.args, c.result = nil, nil, nil
	return res, err
}

func (c *rawConn) doExec(any) (err error) {
	c.result, err = c.st.ExecContext(c.ctx, c.args)
	return err
}

// queryRow runs st with args and returns its first row, as (*sql.Stmt).QueryRow does:
// sql.ErrNoRows for none. The row's values are good until the next query.
func (c *rawConn) queryRow(st rawStmt, args []driver.NamedValue) rawRow {
	c.st, c.args = st, args
	err := c.conn.Raw(c.queryFn)
	c.st, c.args = nil, nil
	if err != nil {
		return rawRow{err: err}
	}
	return rawRow{vals: c.vals}
}

func (c *rawConn) doQuery(any) error {
	rows, err := c.st.QueryContext(c.ctx, c.args)
	if err != nil {
		return err
	}
	// modernc.org/sqlite's Next copies every text and blob out of SQLite's memory into a
	// Go value of its own, so the values outlive the rows, and no one else holds them.
	c.vals = append(c.vals[:0], make([]driver.Value, len(rows.Columns()))...)
	err = rows.Next(c.vals)
	if errors.Is(err, io.EOF) {
		err = sql.ErrNoRows
	}
	// Closing the rows resets the statement for its next use; as for *sql.Row, its
	// error counts only if the row was read.
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return err
}

// close closes stmts, nils included.
func (c *rawConn) close(stmts ...rawStmt) error {
	c.closing = stmts
	err := c.conn.Raw(c.closeFn)
	c.closing = nil
	return err
}

func (c *rawConn) doClose(any) error {
	var errs []error
	for _, st := range c.closing {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	return errors.Join(errs...)
}

// rawRow is a row rawConn.queryRow read, or its error.
type rawRow struct {
	vals []driver.Value
	err  error
}

// Scan stores the row's values in dest, of the types the writer reads: *int64, *int,
// *string, *[]byte or sql.Scanner. A value that does not fit is an error, where
// database/sql would have converted some (an integer into *string): the writer's columns
// hold no such value but in a file changed by hand.
func (r rawRow) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	if len(dest) != len(r.vals) {
		return fmt.Errorf("scan %d columns into %d values", len(r.vals), len(dest))
	}
	for i, d := range dest {
		if err := assign(d, r.vals[i]); err != nil {
			return fmt.Errorf("scan column %d: %w", i, err)
		}
	}
	return nil
}

func assign(dest any, v driver.Value) error {
	switch d := dest.(type) {
	case sql.Scanner:
		return d.Scan(v)
	case *int64:
		if x, ok := v.(int64); ok {
			*d = x
			return nil
		}
	case *int:
		if x, ok := v.(int64); ok && int64(int(x)) == x {
			*d = int(x)
			return nil
		}
	case *string:
		switch x := v.(type) {
		case string:
			*d = x
			return nil
		case []byte:
			*d = string(x)
			return nil
		}
	case *[]byte:
		switch x := v.(type) {
		case []byte:
			*d = x // a copy of its own (doQuery)
			return nil
		case string:
			*d = []byte(x)
			return nil
		case nil:
			*d = nil
			return nil
		}
	}
	return fmt.Errorf("converting %T to %T is unsupported", v, dest)
}
