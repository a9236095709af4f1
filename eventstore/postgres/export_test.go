package postgres

// HeadQuery is Head's statement, for the plan test.
const HeadQuery = headQuery
